import { beforeEach, describe, expect, it, vi } from "vitest";
import { redirect } from "next/navigation";
import { AppError } from "@/lib/errors";
import { succeed } from "./action-result";

// The user and their role in the project's workspace, as the platform database would answer them.
const state = vi.hoisted(() => ({ role: "member" as "member" | "admin" | null, signedIn: true }));
vi.mock("@/lib/auth/current-user", () => ({
  getCurrentUserId: async () => {
    if (!state.signedIn) redirect("/sign-in");
    return "usr_1";
  },
}));
vi.mock("@/lib/projects/get-project-or-throw", () => ({
  getProjectOrThrow: async ({ projectId }: { projectId: string }) => {
    if (projectId !== "prj_1") throw new AppError("not_found", "project not found");
    return { id: "prj_1", workspaceId: "wsp_1" };
  },
}));
vi.mock("@/lib/workspaces/get-workspace-membership-or-throw", () => ({
  getWorkspaceMembershipOrThrow: async () => {
    if (!state.role) throw new AppError("not_found", "workspace not found");
    return { workspaceId: "wsp_1", workspaceName: "W", role: state.role };
  },
}));

const { projectAction } = await import("./project-action");

const rename = projectAction("endpoints.update", async ({ projectId, userId }, name: string) => succeed({ projectId, userId, name }), { name: "rename" });
const manage = projectAction("project.manage", async () => succeed(), { name: "manage" });

beforeEach(() => {
  state.role = "member";
  state.signedIn = true;
});

describe("projectAction", () => {
  it("runs the action for a member whose role allows it, with the project id first", async () => {
    expect(await rename("prj_1", "new")).toEqual({ ok: true, data: { projectId: "prj_1", userId: "usr_1", name: "new" } });
  });

  it("answers the same not_found for a project outside the user's workspaces and one that does not exist", async () => {
    state.role = null;
    const foreign = await rename("prj_1", "new");
    state.role = "member";
    const missing = await rename("prj_2", "new");
    expect(foreign).toEqual(missing);
    expect(foreign).toMatchObject({ ok: false, code: "not_found", error: "Project not found" });
  });

  it("refuses a member an admin-only action, and lets an admin do it", async () => {
    expect(await manage("prj_1")).toMatchObject({ ok: false, code: "forbidden", error: "Only workspace admins can do this" });
    state.role = "admin";
    expect(await manage("prj_1")).toMatchObject({ ok: true });
  });

  it("refuses a malformed project id before any lookup", async () => {
    expect(await rename("x".repeat(500), "new")).toMatchObject({ ok: false, code: "validation_failed", issues: [{ path: "projectId" }] });
    expect(await rename(42 as unknown as string, "new")).toMatchObject({ ok: false, code: "validation_failed" });
  });

  it("lets a redirect to sign-in through instead of answering it as a failure", async () => {
    state.signedIn = false;
    await expect(rename("prj_1", "new")).rejects.toMatchObject({ digest: expect.stringMatching(/^NEXT_REDIRECT/) });
  });
});
