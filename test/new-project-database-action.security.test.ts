import { describe, expect, vi } from "vitest";
import { getPlatformDb } from "@/lib/platform-db/client";
import { memberships } from "@/lib/platform-db/schema";
import { createTestUser, createProjectFixture } from "@/test/fixtures";
import { crossTenantTest } from "@/test/support/cross-tenant-actions";
import { dashboardSession } from "@/test/support/dashboard-session";

/**
 * "Test connection" of the new-project form (testNewProjectDatabaseAction, behind workspaceAction):
 * only a workspace admin makes the server open a connection, the outbound guard checks the host
 * first, and whatever fails is a sentence that never holds the password.
 */
vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const { testNewProjectDatabaseAction } = await import("@/app/(dashboard)/workspaces/[workspaceId]/actions");

/** A workspace with its admin, a member who is not an admin, and a signed-in user of another workspace. */
const it = crossTenantTest(async () => {
  const fixture = await createProjectFixture("Connection tests");
  const member = await createTestUser("member");
  const db = await getPlatformDb();
  await db.insert(memberships).values({ workspaceId: fixture.workspaceId, userId: member.id, role: "member" });
  return { id: fixture.workspaceId, admin: fixture.owner, member, stranger: await createTestUser("stranger") };
});

const PRIVATE_HOST_URL = "postgres://u:topsecret@192.168.1.20/db";

describe("testNewProjectDatabaseAction", () => {
  it("tests the database for an admin: the host guard answers its sentence, without the password", async ({ tenants: workspace }) => {
    dashboardSession.cookie = workspace.admin.cookie;
    const blocked = await testNewProjectDatabaseAction(workspace.id, { kind: "postgres", url: PRIVATE_HOST_URL });
    expect(blocked).toMatchObject({ ok: true, data: { ok: false, message: expect.stringContaining("private") as unknown } });
    expect(JSON.stringify(blocked)).not.toContain("topsecret");
    expect(await testNewProjectDatabaseAction(workspace.id, { kind: "local" })).toMatchObject({ ok: true, data: { ok: true } });
  });

  it("answers malformed settings as a failed test naming what is wrong", async ({ tenants: workspace }) => {
    dashboardSession.cookie = workspace.admin.cookie;
    const malformed = await testNewProjectDatabaseAction(workspace.id, { kind: "postgres", url: "mysql://u:topsecret@db.example/x" });
    expect(malformed).toMatchObject({ ok: true, data: { ok: false, message: expect.stringMatching(/^The connection URL /) as unknown } });
    expect(JSON.stringify(malformed)).not.toContain("topsecret");
  });

  it("refuses a member who is not an admin, and anyone outside the workspace, before any connection", async ({ tenants: workspace }) => {
    dashboardSession.cookie = workspace.member.cookie;
    expect(await testNewProjectDatabaseAction(workspace.id, { kind: "postgres", url: PRIVATE_HOST_URL })).toMatchObject({ ok: false, code: "forbidden" });
    dashboardSession.cookie = workspace.stranger.cookie;
    const refused = await testNewProjectDatabaseAction(workspace.id, { kind: "local" });
    expect(refused).toMatchObject({ ok: false, code: "not_found" });
    expect(JSON.stringify(refused)).not.toContain(workspace.id);
  });

  it("refuses a malformed workspace id before any lookup", async ({ tenants: workspace }) => {
    dashboardSession.cookie = workspace.admin.cookie;
    expect(await testNewProjectDatabaseAction("x".repeat(500), { kind: "local" })).toMatchObject({ ok: false, code: "validation_failed", issues: [{ path: "workspaceId" }] });
  });
});
