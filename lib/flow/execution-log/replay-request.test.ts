import { describe, expect, it } from "vitest";
import { buildExecutionLogEntry } from "./write-execution-log";
import { replayRequestOf } from "./replay-request";

function loggedRun(options: { source?: "endpoint" | "automation"; query?: unknown; body?: unknown; userId?: string | null }) {
  return buildExecutionLogEntry({
    executionId: "exe_0000000000000000000000000a",
    source:
      options.source === "automation"
        ? { type: "automation", automationId: "aut_1", trigger: "form", attempt: 1 }
        : { type: "endpoint", endpointId: "ep_1", method: "POST", slug: "intake" },
    startedAt: new Date("2026-11-24T21:00:00Z"),
    run: null,
    httpStatus: null,
    request: { query: options.query ?? null, body: options.body, userId: options.userId },
  });
}

describe("replayRequestOf", () => {
  it("loads the logged body pretty-printed, the query as a query string and the end user's id", () => {
    const replay = replayRequestOf(loggedRun({ query: { q: "a b", tag: ["x", "y"] }, body: { title: "Lamp" }, userId: "usr_1" }));
    expect(JSON.parse(replay.bodyText)).toEqual({ title: "Lamp" });
    expect(replay.bodyText).toContain("\n");
    expect(Object.fromEntries(new URLSearchParams(replay.queryText))).toEqual({ q: "a b", tag: "y" });
    expect(new URLSearchParams(replay.queryText).getAll("tag")).toEqual(["x", "y"]);
    expect(replay).toMatchObject({ userId: "usr_1", bodyCut: false, masked: false, source: "endpoint" });
  });

  it("keeps masked values masked and says so", () => {
    const replay = replayRequestOf(loggedRun({ body: { token: "abc", nested: { password: "p" } } }));
    expect(replay.bodyText).not.toContain("abc");
    expect(replay.masked).toBe(true);
  });

  it("loads a cut body as the log kept it, flagged as cut", () => {
    const replay = replayRequestOf(loggedRun({ body: { note: "n".repeat(3_000) } }));
    expect(replay.bodyCut).toBe(true);
    expect(replay.bodyText).toMatch(/^\{"note":"n+… \(cut at 2000 characters\)$/);
  });

  it("loads an automation run's trigger payload as the body, with no query and no user", () => {
    const replay = replayRequestOf(loggedRun({ source: "automation", body: { form: "contact", fields: { email: "a@example.com" } } }));
    expect(JSON.parse(replay.bodyText)).toEqual({ form: "contact", fields: { email: "a@example.com" } });
    expect(replay).toMatchObject({ queryText: "", userId: null, source: "automation" });
  });

  it("starts from an empty object when no body was logged", () => {
    expect(replayRequestOf(loggedRun({})).bodyText).toBe("{}");
  });
});
