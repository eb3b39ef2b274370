import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { getRecordStore, closeAllRecordStores } from "@/lib/records/get-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { runFlow } from "@/lib/flow/engine/run-flow";
import { previewValue, PREVIEW_MAX_CHARS } from "./preview";
import { redactSecrets, REDACTED } from "./redact";
import { buildExecutionLogEntry, writeExecutionLog } from "./write-execution-log";
import { queueExecutionLogEntry } from "./log-write-queue";
import { listExecutions } from "./list-executions";
import { getExecutionOrThrow } from "./get-execution-or-throw";
import { pruneExecutions } from "./prune-executions";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";
import { SUMMARY_NOTE } from "./summarize-execution-log-entry";

describe("redaction", () => {
  it("removes authorization and cookie headers, password-like fields and tokens at any depth", () => {
    const redacted = redactSecrets({
      headers: { Authorization: "Bearer abc", cookie: "sid=1", "x-api-key": "k", accept: "json" },
      user: { password: "p", newPassword: "q", resetToken: "t", name: "Ann" },
      list: [{ client_secret: "s", value: 1 }],
      note: "called with Bearer eyJhbGciOi.secret.sig today",
    });
    expect(redacted).toEqual({
      headers: { Authorization: REDACTED, cookie: REDACTED, "x-api-key": REDACTED, accept: "json" },
      user: { password: REDACTED, newPassword: REDACTED, resetToken: REDACTED, name: "Ann" },
      list: [{ client_secret: REDACTED, value: 1 }],
      note: `called with Bearer ${REDACTED} today`,
    });
  });

  it("makes keys storable: no leading $ and no dots", () => {
    expect(Object.keys(redactSecrets({ $where: 1, "a.b": 2 }) as object)).toEqual(["＄where", "a․b"]);
  });

  it("caps previews", () => {
    const preview = previewValue({ text: "x".repeat(PREVIEW_MAX_CHARS * 2) })!;
    expect(preview.length).toBeLessThan(PREVIEW_MAX_CHARS + 60);
    expect(preview).toContain(`cut at ${PREVIEW_MAX_CHARS} characters`);
    expect(previewValue(null)).toBeNull();
    expect(previewValue({ token: "abc" })).toBe(`{"token":"${REDACTED}"}`);
  });
});

describe("execution log in the customer database", () => {
  let store: RecordStore;
  const projectId = newId("project");

  beforeAll(() => {
    store = getRecordStore({ projectId, kind: "local" });
  });
  afterAll(closeAllRecordStores);

  async function logRun(outcome: "ok" | "stop", endpointId: string): Promise<string> {
    const run = await runFlow({
      steps:
        outcome === "ok"
          ? [{ type: "transform", name: "t", expression: "{password: 'p', value: body.n}" }]
          : [
              { type: "condition", checks: [{ left: "{{body.missing}}", operator: "exists" }] },
              { type: "transform", expression: "body" },
            ],
      context: { body: { n: 1 } },
    });
    const executionId = newId("execution");
    await writeExecutionLog({
      store,
      projectId,
      retentionDays: 30,
      executionId,
      source: { type: "endpoint", endpointId, method: "GET", slug: "s" },
      startedAt: new Date(),
      run,
      httpStatus: outcome === "ok" ? 200 : 422,
      request: { query: { a: "1" }, body: { n: 1, authorization: "Bearer x" } },
    });
    return executionId;
  }

  it("writes entries with per-step status, duration and redacted previews; reads one back by id", async () => {
    const id = await logRun("ok", "ep_one");
    const entry = await getExecutionOrThrow({ store, executionId: id });
    expect(entry).toMatchObject({ id, source: "endpoint", endpointId: "ep_one", outcome: "completed", httpStatus: 200 });
    expect(entry.steps[0]).toMatchObject({ index: 0, name: "t", type: "transform", status: "ok", error: null });
    expect(entry.steps[0]!.outputPreview).toBe(`{"password":"${REDACTED}","value":1}`);
    expect(entry.request?.body).toContain(REDACTED);
    expect(typeof entry.steps[0]!.durationMs).toBe("number");
    await expect(getExecutionOrThrow({ store, executionId: newId("execution") })).rejects.toMatchObject({ code: "not_found" });
    await expect(getExecutionOrThrow({ store, executionId: "exe_../../etc" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("lists newest first per endpoint, filters by outcome and pages with a cursor", async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await logRun("ok", "ep_list"));
    ids.push(await logRun("stop", "ep_list"));
    await logRun("ok", "ep_other");
    const all = await listExecutions({ store, endpointId: "ep_list", query: {} });
    expect(all.data.map((entry) => entry.id)).toEqual([...ids].reverse());
    const stopped = await listExecutions({ store, endpointId: "ep_list", query: { outcome: "stopped" } });
    expect(stopped.data.map((entry) => entry.id)).toEqual([ids[3]]);
    expect(stopped.data[0]!.steps.map((step) => step.status)).toEqual(["stopped", "skipped"]);
    const firstPage = await listExecutions({ store, endpointId: "ep_list", query: { limit: "2" } });
    expect(firstPage.data).toHaveLength(2);
    const secondPage = await listExecutions({ store, endpointId: "ep_list", query: { limit: "2", before: firstPage.nextBefore } });
    expect(secondPage.data.map((entry) => entry.id)).toEqual([ids[1], ids[0]]);
    expect(secondPage.nextBefore).toBeNull();
    await expect(listExecutions({ store, query: { outcome: "weird" } })).rejects.toMatchObject({ code: "bad_request" });
  });

  it("prunes entries older than the retention", async () => {
    await logRun("ok", "ep_prune");
    const before = await store.count(EXECUTIONS_COLLECTION);
    expect(await pruneExecutions({ store, retentionDays: 30 })).toBe(0);
    const deleted = await pruneExecutions({ store, retentionDays: 30, now: new Date(Date.now() + 31 * 24 * 60 * 60 * 1000) });
    expect(deleted).toBe(before);
    expect(await store.count(EXECUTIONS_COLLECTION)).toBe(0);
  });

  it("stores a summary when a run's details cannot even be serialised", async () => {
    const run = await runFlow({ steps: [{ type: "transform", name: "t", expression: "body" }], context: { body: { n: 1 } } });
    const poisoned = {
      ...run,
      steps: run.steps.map((step) => ({
        ...step,
        output: {
          toJSON: () => {
            throw new Error("no");
          },
        },
      })),
    };
    const executionId = newId("execution");
    await writeExecutionLog({
      store,
      projectId,
      retentionDays: 30,
      executionId,
      source: { type: "endpoint", endpointId: "ep_poison", method: "GET", slug: "s" },
      startedAt: new Date(),
      run: poisoned,
      httpStatus: 200,
      request: { query: {}, body: {} },
    });
    expect(await getExecutionOrThrow({ store, executionId })).toMatchObject({
      outcome: "completed",
      httpStatus: 200,
      endpointId: "ep_poison",
      steps: [],
      request: null,
      note: SUMMARY_NOTE,
    });
  });

  it("never throws when the log cannot be written", async () => {
    const broken = getRecordStore({ projectId: newId("project"), kind: "postgres", url: "postgres://nobody@127.0.0.1:1/none" });
    await expect(
      writeExecutionLog({
        store: broken,
        projectId,
        retentionDays: 30,
        executionId: newId("execution"),
        source: { type: "test_run", endpointId: null },
        startedAt: new Date(),
        run: null,
        httpStatus: 500,
      }),
    ).resolves.toBeUndefined();
  });
});

describe("execution log write queue", () => {
  let store: RecordStore;
  beforeAll(() => {
    store = getRecordStore({ projectId: newId("project"), kind: "local" });
  });
  afterAll(closeAllRecordStores);

  function entry(overrides: Record<string, unknown> = {}): ExecutionLogEntry {
    const built = buildExecutionLogEntry({ executionId: newId("execution"), source: { type: "test_run", endpointId: null }, startedAt: new Date(), run: null, httpStatus: 200 });
    return { ...built, ...overrides } as ExecutionLogEntry;
  }

  it("writes the entries queued together in one insert, and the ones queued meanwhile in the next", async () => {
    await queueExecutionLogEntry(store, "prj_q", entry()); // creates the collection
    const before = store.metrics.queries;
    const first = Array.from({ length: 150 }, () => entry());
    const pending = first.map((item) => queueExecutionLogEntry(store, "prj_q", item));
    // Queued while the first batch is being written.
    await Promise.resolve();
    const second = Array.from({ length: 30 }, () => entry());
    pending.push(...second.map((item) => queueExecutionLogEntry(store, "prj_q", item)));
    expect(await Promise.all(pending)).toEqual(Array.from({ length: 180 }, () => true));
    expect(store.metrics.queries - before).toBe(2);
    const stored = await store.findByIds(
      EXECUTIONS_COLLECTION,
      [...first, ...second].map((item) => item.id),
    );
    expect(stored).toHaveLength(180);
  });

  it("stores an entry holding text the database refuses, sanitized, beside the rest of its batch", async () => {
    const good = [entry(), entry()];
    const bad = entry({ error: "nul\u0000byte", request: { query: { "x\u0000": "\u0000", lone: "\ud800" }, body: null } });
    const results = await Promise.all([good[0]!, bad, good[1]!].map((item) => queueExecutionLogEntry(store, "prj_q", item)));
    expect(results).toEqual([true, true, true]);
    expect(await store.findByIds(EXECUTIONS_COLLECTION, [good[0]!.id, bad.id, good[1]!.id])).toHaveLength(3);
    const stored = await getExecutionOrThrow({ store, executionId: bad.id });
    expect(stored).toMatchObject({ error: "nul\u2400byte", request: { query: { "x\u2400": "\u2400", lone: "\ufffd" } }, sanitized: true });
    expect((await getExecutionOrThrow({ store, executionId: good[0]!.id })).sanitized).toBeUndefined();
  });

  it("answers false for every entry when the database cannot be reached", async () => {
    const broken = getRecordStore({ projectId: newId("project"), kind: "postgres", url: "postgres://nobody@127.0.0.1:1/none" });
    const results = await Promise.all([entry(), entry()].map((item) => queueExecutionLogEntry(broken, "prj_broken", item)));
    expect(results).toEqual([false, false]);
  });
});

describe("previews redact while serialising", () => {
  it("write what JSON.stringify writes when nothing is secret or cut", () => {
    const value = { a: [1, "two", null, undefined, () => 1, { b: true, c: undefined, d: Number.NaN }], when: new Date("2024-01-02T03:04:05.000Z"), 'quo"te': "é\n" };
    expect(previewValue(value)).toBe(JSON.stringify(value));
    expect(previewValue("text")).toBe('"text"');
    expect(previewValue(undefined)).toBeNull();
  });

  it("stop at the cap however large the output, keeping a cut credential hidden", () => {
    const many = Array.from({ length: 100_000 }, (_, index) => ({ index, title: `ticket ${index}` }));
    const preview = previewValue(many)!;
    expect(preview.startsWith(JSON.stringify(many).slice(0, PREVIEW_MAX_CHARS))).toBe(true);
    expect(preview.length).toBeLessThan(PREVIEW_MAX_CHARS + 40);
    const cut = previewValue({ note: `${"x".repeat(90)} Bearer abcdefghijklmnop` }, 100)!;
    expect(cut).not.toContain("abcd");
  });

  it("hides secret-named fields and credentials in text at any depth, in any case", () => {
    const preview = previewValue([{ profile: { Password: "p", note: "auth: BEARER abc.def" }, apiKey: "k", title: "ok" }])!;
    expect(preview).toBe(`[{"profile":{"Password":"${REDACTED}","note":"auth: BEARER ${REDACTED}"},"apiKey":"${REDACTED}","title":"ok"}]`);
  });
});
