import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { createProjectFixture } from "@/test/fixtures";
import { getProjectRuntime, peekProjectRuntime, RUNTIME_MAX_AGE_MS, RUNTIME_REFRESH_GRACE_MS } from "./project-runtime";

/** Renames the project in the platform database without bumping its generation: only an age-based reload sees it. */
async function renameQuietly(projectId: string, name: string): Promise<void> {
  const db = await getPlatformDb();
  await db.update(projects).set({ name }).where(eq(projects.id, projectId));
}

/** Counts the background reloads that failed (each logs one warning), so that a test can wait for one; afterEach restores log.warn. */
function watchFailedReloads(): { count(): number } {
  const warnings = vi.spyOn(log, "warn");
  return { count: () => warnings.mock.calls.filter(([message]) => message === "project runtime could not be refreshed: the cached one answers meanwhile").length };
}

/** Breaks the project's stored database URL (it no longer decrypts): every reload of the project fails. Answers how to repair it. */
async function breakProjectDatabase(projectId: string): Promise<(name: string) => Promise<void>> {
  const db = await getPlatformDb();
  const [original] = await db.select().from(projects).where(eq(projects.id, projectId));
  await db.update(projects).set({ databaseKind: "postgres", databaseUrlEncrypted: "not-a-ciphertext" }).where(eq(projects.id, projectId));
  return async (name) => {
    await db.update(projects).set({ databaseKind: original!.databaseKind, databaseUrlEncrypted: original!.databaseUrlEncrypted, name }).where(eq(projects.id, projectId));
  };
}

/**
 * A project whose runtime was loaded, whose database then broke, and whose runtime has since aged
 * past RUNTIME_MAX_AGE_MS: the call answered from the cache and its background reload failed once.
 * Date is faked from here on (afterEach restores it).
 */
async function runtimeWhoseReloadFailed() {
  const { projectId } = await createProjectFixture("Before");
  const failedReloads = watchFailedReloads();
  vi.useFakeTimers({ toFake: ["Date"] });
  const first = (await getProjectRuntime(projectId))!;
  const repair = await breakProjectDatabase(projectId);

  vi.setSystemTime(Date.now() + RUNTIME_MAX_AGE_MS + 1);
  expect(await getProjectRuntime(projectId)).toBe(first);
  await vi.waitFor(() => expect(failedReloads.count()).toBe(1), { timeout: 5_000, interval: 20 });
  return { projectId, first, failedReloads, repair };
}

describe("project runtime: reloads by age", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("answers from the cached runtime past its age while a fresh one loads, and then uses the fresh one", async () => {
    const { projectId } = await createProjectFixture("Before");
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = (await getProjectRuntime(projectId))!;
    expect(first.project.name).toBe("Before");
    await renameQuietly(projectId, "After");

    vi.setSystemTime(Date.now() + RUNTIME_MAX_AGE_MS + 1);
    // Past its age, the same generation's runtime answers at once instead of waiting for the reload…
    expect(await getProjectRuntime(projectId)).toBe(first);
    expect(peekProjectRuntime(projectId)).toBe(first);
    // …which replaces it in the background.
    await vi.waitFor(async () => expect((await getProjectRuntime(projectId))!.project.name).toBe("After"), { timeout: 5_000, interval: 50 });
    const refreshed = (await getProjectRuntime(projectId))!;
    expect(refreshed).not.toBe(first);
    expect(refreshed.loadedAt).toBeGreaterThan(first.loadedAt);
  });

  it("answers at once from a runtime left unused for minutes, so that the first calls after a pause wait for no reload", async () => {
    const { projectId } = await createProjectFixture("Before");
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = (await getProjectRuntime(projectId))!;
    await renameQuietly(projectId, "After");

    vi.setSystemTime(Date.now() + 10 * 60_000);
    expect(peekProjectRuntime(projectId)).toBe(first);
    expect(await getProjectRuntime(projectId)).toBe(first);
    await vi.waitFor(async () => expect((await getProjectRuntime(projectId))!.project.name).toBe("After"), { timeout: 5_000, interval: 50 });
  });

  it("waits for a load once the reloads have failed for longer than the grace, and fails with it", async () => {
    const { projectId, first, failedReloads, repair } = await runtimeWhoseReloadFailed();
    // Within the grace the cached runtime keeps answering while each call's reload fails.
    vi.setSystemTime(Date.now() + RUNTIME_REFRESH_GRACE_MS - 1_000);
    expect(await getProjectRuntime(projectId)).toBe(first);
    await vi.waitFor(() => expect(failedReloads.count()).toBe(2), { timeout: 5_000, interval: 20 });

    vi.setSystemTime(Date.now() + 1_001);
    expect(peekProjectRuntime(projectId)).toBeUndefined();
    await expect(getProjectRuntime(projectId)).rejects.toThrow();
    // The calls that wait, and fail, keep the streak going: the stale runtime does not answer again while the outage lasts.
    vi.setSystemTime(Date.now() + RUNTIME_REFRESH_GRACE_MS - 1_000);
    await expect(getProjectRuntime(projectId)).rejects.toThrow();
    vi.setSystemTime(Date.now() + 2_000);
    expect(peekProjectRuntime(projectId)).toBeUndefined();
    await expect(getProjectRuntime(projectId)).rejects.toThrow();

    await repair("Repaired");
    const fresh = (await getProjectRuntime(projectId))!;
    expect(fresh).not.toBe(first);
    expect(fresh.project.name).toBe("Repaired");
  });

  it("answers at once after a quiet spell longer than the grace, though the reload before it failed", async () => {
    const { projectId, first, failedReloads, repair } = await runtimeWhoseReloadFailed();
    await repair("After the pause");

    // One failure a while ago says nothing of now: the call answers and reloads in the background.
    vi.setSystemTime(Date.now() + RUNTIME_REFRESH_GRACE_MS + 5_000);
    expect(peekProjectRuntime(projectId)).toBe(first);
    expect(await getProjectRuntime(projectId)).toBe(first);
    await vi.waitFor(async () => expect((await getProjectRuntime(projectId))!.project.name).toBe("After the pause"), { timeout: 5_000, interval: 50 });
    expect(failedReloads.count()).toBe(1);
  });
});
