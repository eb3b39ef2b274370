import net from "node:net";
import type { AddressInfo } from "node:net";
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { BackgroundFailure, FlowServices } from "@/lib/flow/engine/flow-services";
import { runFlow } from "@/lib/flow/engine/run-flow";
import { allowLoopbackOutbound } from "@/lib/flow/testing/allow-loopback";
import { parsedStep, stepRunContext } from "@/lib/flow/testing/step-context";
import { startLocalTestServer, type LocalTestServer } from "@/lib/outbound/local-test-server";
import { safeFetch } from "@/lib/outbound/safe-fetch";
import { runWebhook } from "./run";

allowLoopbackOutbound();

let server: LocalTestServer;
// Deliveries to /held wait here until the test releases them.
const held: http.ServerResponse[] = [];
const arrived: Array<{ url: string; body: string; headers: http.IncomingHttpHeaders }> = [];
const arrivalWaiters: Array<() => void> = [];

beforeAll(async () => {
  server = await startLocalTestServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      arrived.push({ url: request.url ?? "", body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
      arrivalWaiters.splice(0).forEach((wake) => wake());
      if (request.url === "/held") {
        held.push(response);
        return;
      }
      response.statusCode = request.url === "/fail" ? 503 : 204;
      response.end();
    });
  });
});
afterAll(async () => {
  for (const response of held) response.destroy();
  await server.close();
});

async function nextArrival(count: number) {
  while (arrived.length < count) await new Promise<void>((resolve) => arrivalWaiters.push(resolve));
  return arrived[count - 1];
}

function collectingServices(): FlowServices & { tasks: Promise<void>[]; failures: BackgroundFailure[] } {
  const tasks: Promise<void>[] = [];
  const failures: BackgroundFailure[] = [];
  return {
    fetch: safeFetch,
    tasks,
    failures,
    onBackgroundTask: (task) => tasks.push(task),
    onBackgroundFailure: (failure) => failures.push(failure),
  };
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const base = () => `http://127.0.0.1:${server.port}`;

describe("webhook step", () => {
  it("does not wait for the reply: the step and the run finish while the receiver still holds the request", async () => {
    const services = collectingServices();
    const before = arrived.length;
    const result = await runFlow({
      steps: [
        { type: "webhook", name: "notify", url: `${base()}/held` },
        { type: "transform", name: "after", expression: "`1`" },
      ],
      context: { body: { order: 7, items: ["a"] } },
      services,
    });
    expect(result.outcome).toBe("completed");
    expect(result.steps[0]).toMatchObject({ status: "ok", output: null });
    expect(result.context.steps).toEqual({ notify: null, after: 1 });
    expect(services.tasks).toHaveLength(1);

    const delivery = await nextArrival(before + 1);
    expect(held.length).toBeGreaterThan(0);
    // An empty body sends the whole trigger payload as JSON.
    expect(JSON.parse(delivery?.body ?? "")).toEqual({ order: 7, items: ["a"] });
    expect(delivery?.headers["content-type"]).toBe("application/json");
    held.shift()?.end();
    await services.tasks[0];
    expect(services.failures).toEqual([]);
  });

  it("sends the trigger payload of an automation, and a rendered body and headers when given", async () => {
    const services = collectingServices();
    const before = arrived.length;
    runWebhook(parsedStep({ type: "webhook", url: `${base()}/hook` }), stepRunContext({ context: { trigger: { event: "record.created", id: "rec_1" } }, services }));
    runWebhook(
      parsedStep({ type: "webhook", url: `${base()}/hook?id={{body.id}}`, headers: { "X-Signature": "sig-{{body.id}}" }, body: '{"text": "{{body.text}}"}' }),
      stepRunContext({ context: { body: { id: "a b", text: 'say "hi"' } }, services }),
    );
    await Promise.all(services.tasks);
    const deliveries = arrived.slice(before).sort((a, b) => a.url.localeCompare(b.url));
    expect(JSON.parse(deliveries[0]?.body ?? "")).toEqual({ event: "record.created", id: "rec_1" });
    expect(deliveries[1]?.url).toBe("/hook?id=a%20b");
    expect(deliveries[1]?.headers["x-signature"]).toBe("sig-a b");
    expect(JSON.parse(deliveries[1]?.body ?? "")).toEqual({ text: 'say "hi"' });
    expect(services.failures).toEqual([]);
  });

  it("reports a non-2xx reply through the failure hook", async () => {
    const services = collectingServices();
    runWebhook(parsedStep({ type: "webhook", url: `${base()}/fail` }), stepRunContext({ services, index: 3, name: "notify" }));
    await Promise.all(services.tasks);
    expect(services.failures).toEqual([{ stepIndex: 3, stepName: "notify", type: "webhook", error: "webhook delivery got status 503", status: 503 }]);
  });

  it("reports a delivery that cannot connect through the failure hook; the step itself succeeded", async () => {
    const services = collectingServices();
    const port = await closedPort();
    const result = await runFlow({ steps: [{ type: "webhook", url: `http://127.0.0.1:${port}/hook` }], services });
    expect(result.outcome).toBe("completed");
    await Promise.all(services.tasks);
    expect(services.failures).toHaveLength(1);
    expect(services.failures[0]).toMatchObject({ stepIndex: 0, stepName: null, type: "webhook" });
    expect(services.failures[0]?.error).toBe("webhook delivery failed: outbound request to 127.0.0.1 failed: connection refused");
  });

  it("a header that renders to CR or LF fails the step and nothing is sent", async () => {
    const services = collectingServices();
    const connectionsBefore = server.connections();
    const step = parsedStep({ type: "webhook", url: `${base()}/hook`, headers: { "X-Name": "{{body.name}}" } });
    expect(() => runWebhook(step, stepRunContext({ context: { body: { name: "a\nb" } }, services }))).toThrow(AppError);
    const result = await runFlow({ steps: [{ type: "webhook", url: `${base()}/hook`, headers: { "X-Name": "{{body.name}}" } }], context: { body: { name: "a\rb" } }, services });
    expect(result.outcome).toBe("failed");
    expect(result.steps[0]?.error).toBe('header "X-Name" contains a line break after rendering');
    expect(services.tasks).toHaveLength(0);
    expect(server.connections()).toBe(connectionsBefore);
  });
});
