import { describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { normalizeDocument } from "@/lib/records/normalize-document";
import type { ExecutionLogEntry } from "./execution-log-entry";
import { NUL_REPLACEMENT, SANITIZED_NOTE, SURROGATE_REPLACEMENT, makeEntryStorable } from "./make-entry-storable";
import { SUMMARY_NOTE, summarizeExecutionLogEntry } from "./summarize-execution-log-entry";
import { buildExecutionLogEntry } from "./write-execution-log";

/** An entry holding `query` exactly as given (buildExecutionLogEntry would redact it first). */
function entryWith(query: unknown, error: string | null = null): ExecutionLogEntry {
  const built = buildExecutionLogEntry({
    executionId: newId("execution"),
    source: { type: "endpoint", endpointId: "ep_1", method: "POST", slug: "tickets" },
    startedAt: new Date("2026-01-02T03:04:05.000Z"),
    run: null,
    httpStatus: 201,
    request: { query: {}, body: { title: "a\u0000b" } },
  });
  return { ...built, error, request: { query, body: built.request?.body ?? null } };
}

describe("makeEntryStorable", () => {
  it("leaves an entry without anything the database refuses as it is, unflagged", () => {
    const entry = entryWith({ q: "plain", list: ["é", "😀"] });
    const storable = makeEntryStorable(entry);
    expect(storable).toEqual(entry);
    expect(storable.sanitized).toBeUndefined();
    expect(storable.note).toBeUndefined();
  });

  it("answers a plain entry of storable values itself rather than a copy", () => {
    const entry = entryWith({ q: "plain", n: 2, nested: [{ ok: true, none: null }] });
    expect(makeEntryStorable(entry)).toBe(entry);
  });

  it("copies an entry holding anything JSON would write differently: a dropped member, a toJSON, a class instance, a hole", () => {
    const holes: unknown[] = ["a"];
    holes[2] = "c";
    class Point {
      constructor(readonly x: number) {}
    }
    for (const query of [{ gone: undefined, kept: 1 }, { custom: { toJSON: () => "as text" } }, { point: new Point(1) }, { holes }]) {
      const entry = entryWith(query);
      const storable = makeEntryStorable(entry);
      expect(storable).not.toBe(entry);
      expect(storable.request?.query).toEqual(JSON.parse(JSON.stringify(query)));
      expect(storable.sanitized).toBeUndefined();
    }
  });

  it("replaces NUL and unpaired surrogates in text and keys, and says so", () => {
    const storable = makeEntryStorable(entryWith({ x: "\u0000", "k\u0000ey": ["a\ud800", "\udc00b", "ok😀"] }, "bad value \u0000"));
    expect(storable.request?.query).toEqual({ x: NUL_REPLACEMENT, [`k${NUL_REPLACEMENT}ey`]: [`a${SURROGATE_REPLACEMENT}`, `${SURROGATE_REPLACEMENT}b`, "ok😀"] });
    expect(storable.error).toBe(`bad value ${NUL_REPLACEMENT}`);
    expect(storable).toMatchObject({ sanitized: true, note: SANITIZED_NOTE });
    // The body preview is JSON text: its NUL is already the six characters \u0000, nothing to replace.
    expect(storable.request?.body).toBe('{"title":"a\\u0000b"}');
    expect(() => normalizeDocument(storable)).not.toThrow();
  });

  it("renames keys the record store refuses on every backend: empty, $-prefixed, dotted, __proto__, keeping each", () => {
    const query = JSON.parse('{"": "1", "$where": "2", "a.b": "3", "__proto__": {"polluted": "4"}, "(empty)": "5"}') as Record<string, unknown>;
    const storable = makeEntryStorable(entryWith(query));
    expect(storable.request?.query).toEqual({ "(empty)": "1", "＄where": "2", "a․b": "3", "＿＿proto＿＿": { polluted: "4" }, "(empty)~2": "5" });
    expect(Object.getPrototypeOf(storable.request?.query)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(storable.sanitized).toBe(true);
    expect(() => normalizeDocument(storable)).not.toThrow();
  });

  it("copies to plain JSON: cycles cut, non-finite numbers null, Dates as text", () => {
    const cycle: Record<string, unknown> = { n: Number.NaN, when: new Date("2026-01-01T00:00:00.000Z") };
    cycle.self = cycle;
    const storable = makeEntryStorable(entryWith(cycle));
    expect(storable.request?.query).toMatchObject({ n: null, when: "2026-01-01T00:00:00.000Z" });
    expect(() => normalizeDocument(storable)).not.toThrow();
  });
});

describe("summarizeExecutionLogEntry", () => {
  it("keeps the run's identity, time, outcome and status, and nothing the caller sent", () => {
    const entry = entryWith({ x: "\u0000" }, "boom \u0000");
    const summary = summarizeExecutionLogEntry(entry);
    expect(summary).toEqual({
      id: entry.id,
      source: "endpoint",
      endpointId: "ep_1",
      automationId: null,
      method: "POST",
      slug: "tickets",
      trigger: null,
      attempt: null,
      retryOf: null,
      startedAt: "2026-01-02T03:04:05.000Z",
      durationMs: 0,
      outcome: "failed",
      httpStatus: 201,
      error: null,
      steps: [],
      request: null,
      note: SUMMARY_NOTE,
    });
  });
});

describe("an automation run's entry", () => {
  const built = buildExecutionLogEntry({
    executionId: newId("execution"),
    source: { type: "automation", automationId: "aut_1", trigger: "form", attempt: 2, retryOf: "exe_01jz00000000000000000000aa" },
    startedAt: new Date("2026-01-02T03:04:05.000Z"),
    run: null,
    httpStatus: null,
    error: "the stored flow is invalid",
    request: { query: null, body: { email: "a@example.com", password: "p" } },
  });

  it("names the automation, its trigger and attempt, and keeps the trigger payload as the request body", () => {
    expect(built).toMatchObject({
      source: "automation",
      endpointId: null,
      automationId: "aut_1",
      method: null,
      slug: null,
      trigger: "form",
      attempt: 2,
      retryOf: "exe_01jz00000000000000000000aa",
      httpStatus: null,
      error: "the stored flow is invalid",
      request: { query: null, body: '{"email":"a@example.com","password":"[redacted]"}' },
    });
    expect(makeEntryStorable(built)).toEqual(built);
  });

  it("keeps trigger and attempt in its summary, and not the payload", () => {
    expect(summarizeExecutionLogEntry(built)).toMatchObject({
      automationId: "aut_1",
      trigger: "form",
      attempt: 2,
      retryOf: "exe_01jz00000000000000000000aa",
      request: null,
      error: null,
    });
  });

  it("is null in trigger, attempt and retryOf for endpoint calls and test runs", () => {
    const testRun = buildExecutionLogEntry({ executionId: newId("execution"), source: { type: "test_run", endpointId: null }, startedAt: new Date(), run: null, httpStatus: 200 });
    expect(testRun).toMatchObject({ trigger: null, attempt: null, retryOf: null });
    expect(entryWith({})).toMatchObject({ trigger: null, attempt: null, retryOf: null });
  });
});
