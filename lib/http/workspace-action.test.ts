import { afterAll, describe, expect, it, vi } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { listWorkspaces } from "@/lib/workspaces/list-workspaces";
import { createTestUser } from "@/test/fixtures";
import { dashboardSession } from "@/test/support/dashboard-session";

/**
 * The workspace and signed-in-user variants of the action wrappers (workspaceAction, userAction),
 * through the dashboard's own actions against the real platform database, the session read from
 * the cookie as in a request.
 */
vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const { createWorkspaceAction } = await import("@/app/(dashboard)/workspaces/actions");
const { renameWorkspaceAction, removeMemberAction } = await import("@/app/(dashboard)/workspaces/[workspaceId]/actions");
const { acceptInvitationAction } = await import("@/app/invitations/[token]/actions");

afterAll(closePlatformDb);

function nameForm(name: string): FormData {
  const form = new FormData();
  form.set("name", name);
  return form;
}

async function redirectOf(run: () => Promise<unknown>): Promise<string> {
  const thrown = await run().then(
    (result) => ({ result }),
    (error: unknown) => error,
  );
  const digest = (thrown as { digest?: unknown }).digest;
  if (typeof digest !== "string" || !digest.startsWith("NEXT_REDIRECT")) throw new Error(`expected a redirect, got ${JSON.stringify(thrown)}`);
  return digest.split(";")[2]!;
}

describe("workspaceAction", () => {
  it("runs the action for the signed-in admin, with the workspace id first, and answers the form's values", async () => {
    const admin = await createTestUser("admin");
    dashboardSession.cookie = admin.cookie;
    const workspaceId = (await redirectOf(() => createWorkspaceAction({}, nameForm("Acme")))).replace("/workspaces/", "");
    expect(await renameWorkspaceAction(workspaceId, {}, nameForm("Acme Inc"))).toEqual({ ok: true, data: undefined, message: "Workspace renamed.", values: { name: "Acme Inc" } });
    expect((await listWorkspaces({ userId: admin.id })).map((workspace) => workspace.name)).toEqual(["Acme Inc"]);
  });

  it("answers another user's workspace as the service refuses it, with the form's values put back", async () => {
    const admin = await createTestUser("admin");
    dashboardSession.cookie = admin.cookie;
    const workspaceId = (await redirectOf(() => createWorkspaceAction({}, nameForm("Private")))).replace("/workspaces/", "");
    dashboardSession.cookie = (await createTestUser("stranger")).cookie;
    expect(await renameWorkspaceAction(workspaceId, {}, nameForm("Mine"))).toMatchObject({ ok: false, code: "not_found", values: { name: "Mine" } });
    expect(await removeMemberAction(workspaceId, admin.id)).toMatchObject({ ok: false, code: "not_found" });
    expect((await listWorkspaces({ userId: admin.id })).map((workspace) => workspace.name)).toEqual(["Private"]);
  });

  it("refuses a malformed workspace id before any lookup", async () => {
    dashboardSession.cookie = (await createTestUser("admin")).cookie;
    expect(await renameWorkspaceAction("x".repeat(500), {}, nameForm("A"))).toMatchObject({ ok: false, code: "validation_failed", issues: [{ path: "workspaceId" }] });
    expect(await removeMemberAction(42 as unknown as string, "usr_1")).toMatchObject({ ok: false, code: "validation_failed" });
  });

  it("maps a service's validation failure to the form's field", async () => {
    dashboardSession.cookie = (await createTestUser("admin")).cookie;
    expect(await createWorkspaceAction({}, nameForm("  "))).toMatchObject({
      ok: false,
      code: "validation_failed",
      values: { name: "  " },
      fieldErrors: { name: expect.any(String) as unknown },
    });
  });

  it("lets a redirect to sign-in through instead of answering it as a failure", async () => {
    dashboardSession.cookie = "";
    expect(await redirectOf(() => renameWorkspaceAction("wsp_1", {}, nameForm("A")))).toBe("/sign-in");
  });
});

describe("userAction", () => {
  it("sends a visitor who is not signed in to sign-in and back to the action's page", async () => {
    dashboardSession.cookie = "";
    expect(await redirectOf(() => acceptInvitationAction("a/b", {}, new FormData()))).toBe(`/sign-in?callbackUrl=${encodeURIComponent("/invitations/a%2Fb")}`);
  });

  it("answers what the service refuses as a failure", async () => {
    dashboardSession.cookie = (await createTestUser("invitee")).cookie;
    expect(await acceptInvitationAction("no-such-token", {}, new FormData())).toMatchObject({ ok: false, code: "not_found" });
  });
});
