import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closePlatformDb } from "@/lib/platform-db/client";
import { updateProject } from "@/lib/projects/update-project";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { freePort } from "@/test/support/fault-processes";

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

let server: RouteServer;
let fixture: ProjectFixture;
let readKey: string;
let silent: net.Server;
let silentPort: number;
const silentSockets = new Set<net.Socket>();
let silentClosed = 0;
const savedAllowedHosts = process.env.OUTBOUND_ALLOWED_HOSTS;
const serverLog: string[] = [];

beforeAll(async () => {
  // Both test servers are on loopback, which the outbound guard refuses unless it is allow-listed.
  process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1";
  resetConfigForTests();
  silent = net.createServer((socket) => {
    silentSockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      silentClosed += 1;
      silentSockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as net.AddressInfo).port;

  // What the platform writes to its log (lib/log.ts writes finished lines to stderr).
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
    serverLog.push(String(chunk));
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write);

  server = await startRouteServer();
  fixture = await createProjectFixture("SMTP faults");
  readKey = await fixture.keyFor(["endpoints.read"]);
  const manageKey = await fixture.keyFor(["endpoints.create"]);
  const created = await fetch(`${server.url}/api/projects/${fixture.projectId}/endpoints`, {
    method: "POST",
    headers: { authorization: `Bearer ${manageKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "Notify",
      method: "POST",
      slug: "notify",
      steps: [{ type: "email", name: "mail", to: "{{body.to}}", subject: "Ticket updated", body: "Hello {{body.name}}" }],
      response: { body: '{"sent": true}' },
    }),
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await server?.close();
  await closeAllRecordStores();
  for (const socket of silentSockets) socket.destroy();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
  if (savedAllowedHosts === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
  else process.env.OUTBOUND_ALLOWED_HOSTS = savedAllowedHosts;
  resetConfigForTests();
  await closePlatformDb();
});

function useSmtpServer(port: number) {
  return updateProject({
    projectId: fixture.projectId,
    input: { mail: { host: "127.0.0.1", port, secure: false, user: USER, password: PASSWORD, from: "Shop <shop@example.test>" } },
  });
}

async function notify(): Promise<{ status: number; ms: number; text: string; headers: Headers }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/fn/notify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ to: "reader@example.test", name: "Ada" }),
  });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, text, headers: response.headers };
}

/** The 500 of the specification, naming nothing of the SMTP server; answers the execution id. */
function expectFailedStepAnswer(answer: { status: number; text: string; headers: Headers }, port: number): string {
  expect(answer.status).toBe(500);
  const body = JSON.parse(answer.text) as Json;
  expect(Object.keys(body).sort()).toEqual(["error", "executionId"]);
  expect(body.error).toBe("endpoint execution failed");
  expect(body.executionId).toMatch(/^exe_[0-9a-z]{26}$/);
  const headers = JSON.stringify([...answer.headers]);
  for (const secret of [PASSWORD, USER, "127.0.0.1", `:${port}`, "SMTP"]) expect(headers).not.toContain(secret);
  return body.executionId as string;
}

/** The execution log records the failed email step, without the password. */
async function expectLoggedFailure(executionId: string, port: number): Promise<Json> {
  await server.drain();
  const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/executions/${executionId}`, { headers: { authorization: `Bearer ${readKey}` } });
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

function expectPasswordNotInServerLog(): void {
  expect(serverLog.join("")).not.toContain(PASSWORD);
}

describe("a project's SMTP server failing", () => {
  it("refusing connections: the step fails at once, 500 with the execution id, logged", async () => {
    const port = await freePort();
    await useSmtpServer(port);
    const answer = await notify();
    expect(answer.ms).toBeLessThan(REFUSED_BOUND_MS);
    const executionId = expectFailedStepAnswer(answer, port);
    await expectLoggedFailure(executionId, port);
    expectPasswordNotInServerLog();
  });

  it("accepting TCP and never greeting: cut by the greeting timeout, the socket closed, 500, logged", async () => {
    await useSmtpServer(silentPort);
    const closedBefore = silentClosed;
    const answer = await notify();
    expect(answer.ms).toBeLessThan(SILENT_BOUND_MS);
    const executionId = expectFailedStepAnswer(answer, silentPort);
    const entry = await expectLoggedFailure(executionId, silentPort);
    expect(JSON.stringify(entry.steps)).toMatch(/did not answer in time|did not finish within|timed? ?out/i);
    // The platform let go of the connection it opened: nothing is left waiting on the silent server.
    await expect.poll(() => silentClosed - closedBefore, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
    expect(silentSockets.size).toBe(0);
    expectPasswordNotInServerLog();
  }, 40_000);
});
