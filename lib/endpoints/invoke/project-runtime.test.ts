import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { createProjectFixture } from "@/test/fixtures";
import { getProjectRuntime, peekProjectRuntime, RUNTIME_MAX_AGE_MS, RUNTIME_REFRESH_GRACE_MS } from "./project-runtime";

/** Renames the project in the platform database without bumping its generation: only an age-based reload sees it. */
async function renameQuietly(projectId: string, name: string): Promise<void> {
  const db = await getPlatformDb();
  await db.update(projects).set({ name }).where(eq(projects.id, projectId));
}

describe("project runtime: reloads by age", () => {
  afterEach(() => {
    vi.useRealTimers();
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
    const { projectId } = await createProjectFixture("Before");
    const db = await getPlatformDb();
    const [original] = await db.select().from(projects).where(eq(projects.id, projectId));
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = (await getProjectRuntime(projectId))!;
    // A stored database URL that no longer decrypts: every reload of the project fails.
    await db.update(projects).set({ databaseKind: "postgres", databaseUrlEncrypted: "not-a-ciphertext" }).where(eq(projects.id, projectId));

    vi.setSystemTime(Date.now() + RUNTIME_MAX_AGE_MS + 1);
    expect(await getProjectRuntime(projectId)).toBe(first);
    // Within the grace the cached runtime keeps answering while each call's reload fails.
    vi.setSystemTime(Date.now() + RUNTIME_REFRESH_GRACE_MS - 1_000);
    expect(await getProjectRuntime(projectId)).toBe(first);

    vi.setSystemTime(Date.now() + 1_001);
    expect(peekProjectRuntime(projectId)).toBeUndefined();
    await expect(getProjectRuntime(projectId)).rejects.toThrow();

    await db
      .update(projects)
      .set({ databaseKind: original!.databaseKind, databaseUrlEncrypted: original!.databaseUrlEncrypted, name: "Repaired" })
      .where(eq(projects.id, projectId));
    const fresh = (await getProjectRuntime(projectId))!;
    expect(fresh).not.toBe(first);
    expect(fresh.project.name).toBe("Repaired");
  });
});
