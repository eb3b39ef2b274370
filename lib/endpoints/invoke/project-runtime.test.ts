import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { createProjectFixture } from "@/test/fixtures";
import { getProjectRuntime, peekProjectRuntime, RUNTIME_MAX_AGE_MS, RUNTIME_STALE_LIMIT_MS } from "./project-runtime";

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

  it("waits for a fresh runtime once the cached one is past its age and the grace", async () => {
    const { projectId } = await createProjectFixture("Before");
    vi.useFakeTimers({ toFake: ["Date"] });
    const first = (await getProjectRuntime(projectId))!;
    await renameQuietly(projectId, "After");

    vi.setSystemTime(Date.now() + RUNTIME_STALE_LIMIT_MS + 1);
    expect(peekProjectRuntime(projectId)).toBeUndefined();
    const fresh = (await getProjectRuntime(projectId))!;
    expect(fresh).not.toBe(first);
    expect(fresh.project.name).toBe("After");
  });
});
