import net from "node:net";
import { describe, expect, vi } from "vitest";
import { updateProject } from "@/lib/projects/update-project";
import type { RouteServer } from "@/test/http-harness";
import { expectFailedStepAnswer, timedInvoke, type TimedAnswer } from "@/test/support/timed-invocation";
import { freePort } from "@/test/support/fault-processes";
import { setProcessEnv } from "@/test/support/process-env";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * A project's SMTP server fails (security issue 9, item 10): (a) it refuses connections (nothing
 * listens on the port), (b) it accepts TCP and never sends its greeting. An endpoint with an email
 * step using the project's SMTP settings:
 * - fails the step — refused at once; silent cut by the greeting timeout (MAIL_TIMEOUT_MS, 10 s,
 *   inside the email step's own 15 s limit, FLOW_LIMITS.mailTimeoutMs), and the socket is closed;
 * - answers the specification's 500 `{"error":"endpoint execution failed","executionId":…}` with
 *   nothing else: no SMTP host, port, user or password;
 * - records the failure in the execution log (outcome failed, the email step failed with a message
 *   naming the project's own server but never its password), and the server log never holds the password.
 */
const PASSWORD = "smtp-Pa55word-never-shown";
const USER = "mailer-user";
/** The step's own limit is 15 s and the greeting timeout 10 s: generous for a loaded CI machine. */
const SILENT_BOUND_MS = 20_000;
const REFUSED_BOUND_MS = 5_000;

type Json = Record<string, unknown>;

/** An SMTP server that accepts TCP and never sends its greeting: its port, its open sockets, how many closed. */
interface SilentServer {
  port: number;
  sockets: Set<net.Socket>;
  closed: number;
}

const it = routeTest
  /** Points the project's mail at a loopback SMTP server, which the outbound guard lets through until the file ends. */
  .extend("useSmtpServer", { scope: "file" }, ({ project }, { onCleanup }) => {
    onCleanup(setProcessEnv({ OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" }));
    return (port: number) =>
      updateProject({
        projectId: project.projectId,
        input: { mail: { host: "127.0.0.1", port, secure: false, user: USER, password: PASSWORD, from: "Shop <shop@example.test>" } },
      });
  })
  .extend("silent", { scope: "file" }, async ({}, { onCleanup }) => {
    const silent: SilentServer = { port: 0, sockets: new Set(), closed: 0 };
    const server = net.createServer((socket) => {
      silent.sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        silent.closed += 1;
        silent.sockets.delete(socket);
      });
    });
    onCleanup(async () => {
      for (const socket of silent.sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    silent.port = (server.address() as net.AddressInfo).port;
    return silent;
  })
  /** What the platform writes to its log (lib/log.ts writes finished lines to stderr). */
  .extend("serverLog", { scope: "file" }, ({}, { onCleanup }) => {
    const serverLog: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      serverLog.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write);
    onCleanup(() => {
      vi.restoreAllMocks();
    });
    return serverLog;
  })
  /** The `notify` endpoint (an email step with the project's SMTP settings); the client reads executions with a key. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
    const created = await ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.create"]) } }).request("POST", "/endpoints", {
      name: "Notify",
      method: "POST",
      slug: "notify",
      steps: [{ type: "email", name: "mail", to: "{{body.to}}", subject: "Ticket updated", body: "Hello {{body.name}}" }],
      response: { body: '{"sent": true}' },
    });
    expect(created.status).toBe(201);
    return ownerApi.with({ credentials: { key: await project.keyFor(["endpoints.read"]) } });
  });

function notify(api: ProjectApi): Promise<TimedAnswer> {
  return timedInvoke(api, "notify", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ to: "reader@example.test", name: "Ada" }),
  });
}

/** The 500 of the specification, naming nothing of the SMTP server; answers the execution id. */
function expectSmtpFailureAnswer(answer: TimedAnswer, port: number): string {
  return expectFailedStepAnswer(answer, [PASSWORD, USER, "127.0.0.1", `:${port}`, "SMTP"]);
}

/** The execution log records the failed email step, without the password. */
async function expectLoggedFailure(server: RouteServer, api: ProjectApi, executionId: string, port: number): Promise<Json> {
  await server.drain();
  const response = await api.fetch(`/executions/${executionId}`);
  expect(response.status).toBe(200);
  const entry = (await response.json()) as Json & { steps: Json[] };
  expect(entry).toMatchObject({ id: executionId, outcome: "failed", httpStatus: 500 });
  expect(entry.steps).toHaveLength(1);
  expect(entry.steps[0]).toMatchObject({ type: "email", status: "failed" });
  expect(String((entry.steps[0]!.error as { message?: string } | null)?.message ?? entry.steps[0]!.error)).toContain(`:${port}`);
  const stored = JSON.stringify(entry);
  expect(stored).not.toContain(PASSWORD);
  return entry;
}

function expectPasswordNotInServerLog(serverLog: string[]): void {
  expect(serverLog.join("")).not.toContain(PASSWORD);
}

describe("a project's SMTP server failing", () => {
  it("refusing connections: the step fails at once, 500 with the execution id, logged", async ({ useSmtpServer, serverLog, server, api }) => {
    const port = await freePort();
    await useSmtpServer(port);
    const answer = await notify(api);
    expect(answer.ms).toBeLessThan(REFUSED_BOUND_MS);
    const executionId = expectSmtpFailureAnswer(answer, port);
    await expectLoggedFailure(server, api, executionId, port);
    expectPasswordNotInServerLog(serverLog);
  });

  it("accepting TCP and never greeting: cut by the greeting timeout, the socket closed, 500, logged", async ({ useSmtpServer, silent, serverLog, server, api }) => {
    await useSmtpServer(silent.port);
    const closedBefore = silent.closed;
    const answer = await notify(api);
    expect(answer.ms).toBeLessThan(SILENT_BOUND_MS);
    const executionId = expectSmtpFailureAnswer(answer, silent.port);
    const entry = await expectLoggedFailure(server, api, executionId, silent.port);
    expect(JSON.stringify(entry.steps)).toMatch(/did not answer in time|did not finish within|timed? ?out/i);
    // The platform let go of the connection it opened: nothing is left waiting on the silent server.
    await expect.poll(() => silent.closed - closedBefore, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
    expect(silent.sockets.size).toBe(0);
    expectPasswordNotInServerLog(serverLog);
  }, 40_000);
});
