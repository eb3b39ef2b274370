import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import type { FlowServices } from "@/lib/flow/engine/flow-services";
import { runFlow } from "@/lib/flow/engine/run-flow";
import { validateFlow } from "@/lib/flow/flow-definition";
import { allowLoopbackOutbound } from "@/lib/flow/testing/allow-loopback";
import { parsedStep, stepRunContext } from "@/lib/flow/testing/step-context";
import { startLocalTestServer, type LocalTestServer } from "@/lib/outbound/local-test-server";
import { safeFetch } from "@/lib/outbound/safe-fetch";
import { runHttp } from "./run";

allowLoopbackOutbound();

let server: LocalTestServer;
beforeAll(async () => {
  server = await startLocalTestServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      if (path.startsWith("/missing")) {
        response.statusCode = 404;
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ error: "no such thing" }));
      } else if (path.startsWith("/text")) {
        response.setHeader("content-type", "text/plain");
        response.end("plain words");
      } else if (path.startsWith("/huge")) {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ data: "x".repeat(400_000) }));
      } else if (path.startsWith("/redirect")) {
        response.statusCode = 302;
        response.setHeader("location", "http://127.0.0.1:1/elsewhere");
        response.end();
      } else {
        response.setHeader("content-type", "application/json");
        response.end(
          JSON.stringify({
            method: request.method,
            path,
            authorization: request.headers.authorization ?? null,
            contentType: request.headers["content-type"] ?? null,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      }
    });
  });
});
afterAll(() => server.close());

const services: FlowServices = { fetch: safeFetch };
const base = () => `http://127.0.0.1:${server.port}`;

describe("http step", () => {
  it("calls the rendered URL with rendered headers and parses a JSON reply into {status, ok, body}", async () => {
    const step = parsedStep({
      type: "http",
      url: `${base()}/users/{{body.id}}?q={{query.q}}`,
      headers: { Authorization: "Bearer {{body.token}}" },
    });
    const output = await runHttp(step, stepRunContext({ context: { body: { id: "a/b", token: "t0k" }, query: { q: "x&admin=1" } }, services }));
    expect(output).toEqual({
      status: 200,
      ok: true,
      body: { method: "GET", path: "/users/a%2Fb?q=x%26admin%3D1", authorization: "Bearer t0k", contentType: null, body: "" },
    });
  });

  it("inserts a base URL from a placeholder at the very start as it is", async () => {
    const step = parsedStep({ type: "http", url: "{{body.base}}/items/{{body.id}}" });
    const output = await runHttp(step, stepRunContext({ context: { body: { base: base(), id: 7 } }, services }));
    expect((output.body as { path: string }).path).toBe("/items/7");
  });

  it("sends a JSON body template as application/json with values escaped inside strings", async () => {
    const step = parsedStep({
      type: "http",
      method: "POST",
      url: `${base()}/echo`,
      body: '{"name": "{{body.name}}", "count": {{body.count}}, "tags": {{body.tags}}}',
    });
    const output = await runHttp(step, stepRunContext({ context: { body: { name: 'Ann "Q"', count: 2, tags: ["a"] } }, services }));
    const echoed = output.body as { method: string; contentType: string; body: string };
    expect(echoed.method).toBe("POST");
    expect(echoed.contentType).toBe("application/json");
    expect(JSON.parse(echoed.body)).toEqual({ name: 'Ann "Q"', count: 2, tags: ["a"] });
  });

  it("sends other bodies as text unless a content type is given", async () => {
    const text = await runHttp(
      parsedStep({ type: "http", method: "PUT", url: `${base()}/echo`, body: "name={{body.name}}" }),
      stepRunContext({ context: { body: { name: "x" } }, services }),
    );
    expect(text.body).toMatchObject({ method: "PUT", contentType: "text/plain; charset=utf-8", body: "name=x" });
    const form = await runHttp(
      parsedStep({ type: "http", method: "POST", url: `${base()}/echo`, body: "a={{body.name}}", headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      stepRunContext({ context: { body: { name: "x" } }, services }),
    );
    expect(form.body).toMatchObject({ contentType: "application/x-www-form-urlencoded", body: "a=x" });
  });

  it("a non-2xx reply is data, not a failure", async () => {
    const output = await runHttp(parsedStep({ type: "http", url: `${base()}/missing` }), stepRunContext({ services }));
    expect(output).toEqual({ status: 404, ok: false, body: { error: "no such thing" } });
  });

  it("a redirect is the result, never followed", async () => {
    const output = await runHttp(parsedStep({ type: "http", url: `${base()}/redirect` }), stepRunContext({ services }));
    expect(output).toMatchObject({ status: 302, ok: false });
  });

  it("a text reply stays text; a reply over 256 KB is cut and flagged", async () => {
    expect((await runHttp(parsedStep({ type: "http", url: `${base()}/text` }), stepRunContext({ services }))).body).toBe("plain words");
    const huge = await runHttp(parsedStep({ type: "http", url: `${base()}/huge` }), stepRunContext({ services }));
    expect(huge.truncated).toBe(true);
    expect(typeof huge.body).toBe("string");
    expect((huge.body as string).length).toBe(262_144);
  });

  it("a header that renders to CR or LF fails the step before anything is sent", async () => {
    const connectionsBefore = server.connections();
    const step = parsedStep({ type: "http", url: `${base()}/echo`, headers: { "X-Name": "{{body.name}}" } });
    const error = await runHttp(step, stepRunContext({ context: { body: { name: "a\r\nX-Admin: 1" } }, services })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe('header "X-Name" contains a line break after rendering');
    expect(server.connections()).toBe(connectionsBefore);
  });

  it("a URL that does not render to http(s) fails the step", async () => {
    const error = await runHttp(parsedStep({ type: "http", url: "{{body.url}}" }), stepRunContext({ context: { body: { url: "file:///etc/passwd" } }, services })).catch(
      (caught: unknown) => caught,
    );
    expect((error as AppError).message).toMatch(/is not a valid http:\/\/ or https:\/\/ URL/);
  });

  it("goes through the outbound guard: without the allow-list loopback is refused", async () => {
    delete process.env.OUTBOUND_ALLOWED_HOSTS;
    resetConfigForTests();
    try {
      const connectionsBefore = server.connections();
      const result = await runFlow({ steps: [{ type: "http", url: `${base()}/echo` }], services });
      expect(result.outcome).toBe("failed");
      expect(result.steps[0]?.error).toMatch(/^outbound request refused/);
      expect(server.connections()).toBe(connectionsBefore);
    } finally {
      process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1";
      resetConfigForTests();
    }
  });

  it("runs inside a flow and its output feeds later templates", async () => {
    const result = await runFlow({
      steps: [
        { type: "http", name: "api", method: "POST", url: `${base()}/echo`, body: '{"id": "{{body.id}}"}' },
        { type: "transform", name: "sent", expression: "steps.api.body.body" },
      ],
      context: { body: { id: "42" } },
      services,
    });
    expect(result.outcome).toBe("completed");
    expect(result.context.steps.sent).toBe('{"id": "42"}');
  });
});

describe("http step settings", () => {
  it("validates method, URL, header names and bodies when saved", () => {
    const result = validateFlow([
      { type: "http", url: "ftp://example.com" },
      { type: "http", url: "https://example.com", headers: { "bad header": "x", Host: "evil" } },
      { type: "http", url: "https://example.com", headers: { "X-A": "line\nbreak" } },
      { type: "http", url: "https://example.com", body: "should not be here" },
      { type: "http", url: "https://example.com", method: "TRACE" as "GET" },
      { type: "http", url: "{{steps.config.url}}/items", method: "DELETE" },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual([
      "steps.0.url",
      "steps.1.headers.bad header",
      "steps.1.headers.Host",
      "steps.2.headers.X-A",
      "steps.3.body",
      "steps.4.method",
    ]);
  });
});
