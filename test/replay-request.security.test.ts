import { describe, expect, vi } from "vitest";
import { EXECUTIONS_COLLECTION } from "@/lib/flow/execution-log/execution-log-entry";
import { buildExecutionLogEntry } from "@/lib/flow/execution-log/write-execution-log";
import { newId } from "@/lib/ids";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { dashboardTest } from "@/test/support/dashboard-test";

/**
 * The editors' replay loader (`?replay=<executionId>`) against the real platform database and the
 * projects' own customer databases: it reads only the signed-in user's project, finds another
 * project's run nowhere, and hands the panel the log's redacted, capped preview, never more.
 */

vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const { loadReplayRequest } = await import("@/app/(dashboard)/projects/[projectId]/_data/load-replay-request");

/** A logged end-user call with a secret-named field and a long note, written the way the log writes it. */
async function withLoggedCall(fixture: ProjectFixture, note: string): Promise<ProjectFixture & { executionId: string }> {
  const executionId = newId("execution");
  const entry = buildExecutionLogEntry({
    executionId,
    source: { type: "endpoint", endpointId: newId("endpoint"), method: "POST", slug: "tickets" },
    startedAt: new Date(),
    run: null,
    httpStatus: 500,
    request: { query: { page: "2", tag: ["a", "b"], api_key: "query-secret" }, body: { title: note, password: "hunter2-of-" + fixture.projectId }, userId: "usr_42" },
  });
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  await store.insert(EXECUTIONS_COLLECTION, { ...entry });
  return { ...fixture, executionId };
}

const it = dashboardTest
  /** The signed-in user's project, with a logged call; made before the file's first test. */
  .extend("B", { scope: "file", auto: true }, ({ project }) => withLoggedCall(project, "B's ticket"))
  /** A project of another workspace, with a logged call. */
  .extend("A", { scope: "file" }, async () => withLoggedCall(await createProjectFixture("Replay of A"), "A's ticket"));

describe("loadReplayRequest", () => {
  it("refuses another project's execution id: B's project does not hold A's run", async ({ A, B }) => {
    const loaded = await loadReplayRequest({ projectId: B.projectId, executionId: A.executionId });
    expect(loaded).toEqual({ ok: false, executionId: A.executionId, message: expect.stringMatching(/No run .* in this project's log/) });
    expect(JSON.stringify(loaded)).not.toContain("A's ticket");
  });

  it("answers a 404 for a project outside the signed-in user's workspaces, before reading any log", async ({ A }) => {
    await expect(loadReplayRequest({ projectId: A.projectId, executionId: A.executionId })).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
  });

  it("treats a malformed id as not found", async ({ B }) => {
    expect(await loadReplayRequest({ projectId: B.projectId, executionId: "exe_../../etc" })).toMatchObject({ ok: false });
  });

  it("returns the project's own run as the log kept it: secrets masked, query as a string, the end user's id", async ({ B }) => {
    const loaded = await loadReplayRequest({ projectId: B.projectId, executionId: B.executionId });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const { replay } = loaded;
    expect(replay).toMatchObject({ executionId: B.executionId, source: "endpoint", userId: "usr_42", bodyCut: false, masked: true });
    expect(JSON.parse(replay.bodyText)).toEqual({ title: "B's ticket", password: "[redacted]" });
    expect(replay.bodyText).not.toContain("hunter2");
    expect(new URLSearchParams(replay.queryText).getAll("tag")).toEqual(["a", "b"]);
    expect(new URLSearchParams(replay.queryText).get("api_key")).toBe("[redacted]");
  });

  it("says when the log cut the body short, and loads the cut preview as it is", async ({ B }) => {
    const long = await withLoggedCall(B, "n".repeat(5_000));
    const loaded = await loadReplayRequest({ projectId: B.projectId, executionId: long.executionId });
    expect(loaded).toMatchObject({ ok: true, replay: { bodyCut: true } });
    if (loaded.ok) expect(loaded.replay.bodyText).toMatch(/cut at 2000 characters\)$/);
  });
});
