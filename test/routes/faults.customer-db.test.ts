import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { log } from "@/lib/log";
import { closePlatformDb } from "@/lib/platform-db/client";
import { updateProject } from "@/lib/projects/update-project";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createSchema } from "@/lib/schemas/create-schema";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { postgresBinariesAvailable, sleep, startPrivatePostgres, type PrivatePostgres } from "@/test/support/fault-processes";

/**
 * The customer database stops mid-run (security issue 9, item 10), against a PostgreSQL cluster of
 * this file's own (initdb into a temporary directory, a free loopback port; the shared servers are
 * never touched), stopped with `pg_ctl stop -m immediate` while an endpoint waits on a slow HTTP step
 * before its create step, and while query endpoints are called.
 *
 * Observed policy:
 * - the caller gets the specification's answer for a failed step, 500
 *   `{"error":"endpoint execution failed","executionId":…}`, within a bounded time (refused
 *   connections fail at once; bound asserted: 5 s past the slow step), and nothing about the
 *   database (driver text, host, port, connection string) is in the body or the headers;
 * - the failed run's execution log cannot be stored while its only home, the customer database, is
 *   down: the log write queue reports it in the server log ("execution logs could not be written",
 *   with the project and the count, no connection details) and drops it — its documented policy
 *   (lib/flow/execution-log/log-write-queue.ts: "false when it ... could not be written (already
 *   reported in the server log)"). The caller's executionId then answers 404;
 * - once the database is back, the next calls succeed and their logs are written, with no restart;
 * - hanging instead (every process of the cluster SIGSTOPped, connections open, nothing answers): the
 *   step is cut by its 10 s limit (FLOW_LIMITS.databaseTimeoutMs), the caller gets the same 500, and
 *   the failed runs' logs wait in the queue (30 s write limit) and are written once it answers again.
 */
const available = postgresBinariesAvailable();
const suite = available ? describe : describe.skip;
const BOUND_MS = 5_000;
const SLOW_STEP_MS = 1_500;
/** A hung database: the step's own 10 s limit plus a generous margin. */
const HANG_BOUND_MS = 16_000;

type Json = Record<string, unknown>;

suite("the customer database stopped mid-run, on a PostgreSQL cluster of this test's own", () => {
  let postgres: PrivatePostgres;
  let slowUpstream: Server;
  let upstreamPort: number;
  let server: RouteServer;
  let fixture: ProjectFixture;
  let readKey: string;
  const savedAllowedHosts = process.env.OUTBOUND_ALLOWED_HOSTS;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    // An upstream that answers after a while: the run is inside its slow step when the database stops.
    slowUpstream = createServer((_request, response) => {
      setTimeout(() => response.writeHead(200, { "content-type": "application/json" }).end('{"ok": true}'), SLOW_STEP_MS);
    });
    await new Promise<void>((resolve) => slowUpstream.listen(0, "127.0.0.1", resolve));
    upstreamPort = (slowUpstream.address() as AddressInfo).port;
    process.env.OUTBOUND_ALLOWED_HOSTS = `127.0.0.1:${postgres.port},127.0.0.1:${upstreamPort}`;
    resetConfigForTests();

    server = await startRouteServer();
    fixture = await createProjectFixture("Customer database faults");
    await updateProject({ projectId: fixture.projectId, input: { database: { kind: "postgres", url: postgres.url } } });
    const store = await getProjectRecordStore({ projectId: fixture.projectId });
    await createSchema({ projectId: fixture.projectId, store, definition: { name: "notes", kind: "collection", fields: [{ name: "text", type: "string", required: true }] } });
    readKey = await fixture.keyFor(["endpoints.read"]);
    const manageKey = await fixture.keyFor(["endpoints.create"]);
    for (const endpoint of [
      {
        name: "Notes",
        method: "GET",
        slug: "notes",
        steps: [{ type: "query", name: "notes", schema: "notes", limit: 100 }],
        response: { body: '{"count": {{steps.notes.length}}}' },
      },
      {
        name: "Slow note",
        method: "POST",
        slug: "slow-note",
        steps: [
          { type: "http", name: "upstream", method: "GET", url: `http://127.0.0.1:${upstreamPort}/slow` },
          { type: "create", name: "note", schema: "notes", values: { text: "{{body.text}}" } },
        ],
        response: { status: 201, body: '{"id": "{{steps.note.id}}"}' },
      },
    ]) {
      const created = await fetch(`${server.url}/api/projects/${fixture.projectId}/endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${manageKey}`, "content-type": "application/json" },
        body: JSON.stringify(endpoint),
      });
      expect(created.status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
    await closeAllRecordStores();
    // Our own cluster only: stopped by its data directory, which is then removed.
    postgres?.dispose();
    await new Promise<void>((resolve) => (slowUpstream ? slowUpstream.close(() => resolve()) : resolve()));
    if (savedAllowedHosts === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
    else process.env.OUTBOUND_ALLOWED_HOSTS = savedAllowedHosts;
    resetConfigForTests();
    await closePlatformDb();
  });

  interface Answer {
    status: number;
    ms: number;
    text: string;
    headers: Headers;
  }

  async function invoke(method: string, slug: string, body?: unknown): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/fn/${slug}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, ms: performance.now() - started, text, headers: response.headers };
  }

  async function execution(executionId: string): Promise<{ status: number; body: Json }> {
    const response = await fetch(`${server.url}/api/projects/${fixture.projectId}/executions/${executionId}`, { headers: { authorization: `Bearer ${readKey}` } });
    return { status: response.status, body: (await response.json()) as Json };
  }

  /** The specification's answer for a failed step, with nothing about the database in it. */
  function expectFailedStepAnswer(answer: Answer): string {
    expect(answer.status).toBe(500);
    const body = JSON.parse(answer.text) as Json;
    expect(Object.keys(body).sort()).toEqual(["error", "executionId"]);
    expect(body.error).toBe("endpoint execution failed");
    expect(body.executionId).toMatch(/^exe_[0-9a-z]{26}$/);
    // The body is exactly those two fields (checked above); no header carries the database either.
    const headers = JSON.stringify([...answer.headers]);
    for (const secret of [`:${postgres.port}`, "127.0.0.1", "postgres", "ECONNREFUSED", "terminated", "database"]) {
      expect(headers).not.toContain(secret);
    }
    return body.executionId as string;
  }

  it("serves and logs while the database is up", async () => {
    const created = await invoke("POST", "slow-note", { text: "first" });
    expect(created.status).toBe(201);
    const listed = await invoke("GET", "notes");
    expect(JSON.parse(listed.text)).toEqual({ count: 1 });
    await server.drain();
    const logged = await execution(created.headers.get("x-execution-id")!);
    expect(logged.status).toBe(200);
    expect(logged.body).toMatchObject({ outcome: "completed", httpStatus: 201 });
  });

  it("stopped mid-run: 500 with the execution id within a bounded time, nothing leaked, the lost log reported", async () => {
    const errors = vi.spyOn(log, "error");
    const slow = invoke("POST", "slow-note", { text: "during the outage" });
    // The run is inside its slow HTTP step; the database goes away under it (every backend killed).
    await sleep(SLOW_STEP_MS / 3);
    postgres.stopImmediate();
    const reads = await Promise.all([invoke("GET", "notes"), invoke("GET", "notes")]);
    const failedRun = await slow;
    expect(failedRun.ms).toBeLessThan(SLOW_STEP_MS + BOUND_MS);
    const ids = [expectFailedStepAnswer(failedRun)];
    for (const read of reads) {
      expect(read.ms).toBeLessThan(BOUND_MS);
      ids.push(expectFailedStepAnswer(read));
    }

    // The logs of these runs can only go to the database that is down: reported, without connection details.
    await server.drain();
    const reports = errors.mock.calls.filter(([message]) => /execution logs? could not be written/.test(message));
    expect(reports.length).toBeGreaterThan(0);
    for (const [, fields] of reports) {
      expect(fields).toMatchObject({ projectId: fixture.projectId });
    }
    const reported = reports.reduce((count, [, fields]) => count + Number((fields as { entries?: number }).entries ?? 1), 0);
    expect(reported).toBe(ids.length);
    errors.mockRestore();

    // Back up: the next calls succeed with no restart of the platform, and are logged again.
    await postgres.start();
    let recovered: Answer | undefined;
    for (let attempt = 0; attempt < 20; attempt++) {
      recovered = await invoke("GET", "notes");
      if (recovered.status === 200) break;
      await sleep(250);
    }
    expect(recovered?.status).toBe(200);
    expect(JSON.parse(recovered!.text)).toEqual({ count: 1 });
    const created = await invoke("POST", "slow-note", { text: "after the outage" });
    expect(created.status).toBe(201);
    await server.drain();
    expect((await execution(created.headers.get("x-execution-id")!)).body).toMatchObject({ outcome: "completed" });
    // The failed runs' logs were dropped while the database was down (documented, reported above).
    for (const id of ids) expect((await execution(id)).status).toBe(404);
    expect(JSON.parse((await invoke("GET", "notes")).text)).toEqual({ count: 2 });
  });

  it("hanging (every process SIGSTOPped) mid-run: 500 once the step's 10 s limit passes, and the log is written when it answers again", async () => {
    // Warm the pool: the runs below meet open connections whose server no longer answers.
    expect((await invoke("GET", "notes")).status).toBe(200);
    const slow = invoke("POST", "slow-note", { text: "during the hang" });
    await sleep(SLOW_STEP_MS / 3);
    postgres.pause();
    let answers: Answer[];
    try {
      answers = await Promise.all([slow, invoke("GET", "notes")]);
    } finally {
      // Resumed within the log write's 30 s limit (log-write-queue.ts): the queued logs go through.
      postgres.resume();
    }
    const ids: string[] = [];
    for (const answer of answers) {
      // A database operation is cut at 10 s (FLOW_LIMITS.databaseTimeoutMs), inside the 30 s run budget.
      expect(answer.ms).toBeLessThan(SLOW_STEP_MS + HANG_BOUND_MS);
      ids.push(expectFailedStepAnswer(answer));
    }
    await server.drain();
    for (const id of ids) {
      const logged = await execution(id);
      expect(logged.status).toBe(200);
      expect(logged.body).toMatchObject({ id, outcome: "failed", httpStatus: 500 });
      expect(JSON.stringify(logged.body)).not.toContain(String(postgres.url));
    }
    expect((await invoke("GET", "notes")).status).toBe(200);
  }, 45_000);
});
