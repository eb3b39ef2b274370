import { afterAll, afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closePlatformDb, getPlatformDb } from "@/lib/platform-db/client";
import { projects } from "@/lib/platform-db/schema";
import { eq } from "drizzle-orm";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { createTestUser } from "@/test/fixtures";
import { createProject } from "./create-project";
import { updateProject } from "./update-project";
import { testDatabaseConnection } from "./test-database-connection";
import { getProjectDatabaseTarget } from "./get-project-database-target";
import { getProjectOrThrow } from "./get-project-or-throw";
import { getProjectMailSettings } from "./get-project-mail-settings";
import { listProjects } from "./list-projects";

afterEach(() => {
  delete process.env.OUTBOUND_ALLOWED_HOSTS;
  resetConfigForTests();
});
afterAll(closePlatformDb);

async function workspaceOf(label: string) {
  const user = await createTestUser(label);
  const workspace = await createWorkspace({ userId: user.id, name: label });
  return { user, workspace };
}

describe("projects", () => {
  it("creates projects with unique slugs on the local database", async () => {
    const { user, workspace } = await workspaceOf("slugs");
    const first = await createProject({ workspaceId: workspace.id, actorId: user.id, input: { name: "My Shop!" } });
    const second = await createProject({ workspaceId: workspace.id, actorId: user.id, input: { name: "My shop" } });
    expect([first.slug, second.slug]).toEqual(["my-shop", "my-shop-2"]);
    expect(first).toMatchObject({ database: { kind: "local", hint: null }, mail: { configured: false }, logRetentionDays: 30 });
    expect((await listProjects({ workspaceId: workspace.id, actorId: user.id })).map((project) => project.id)).toEqual([first.id, second.id]);
  });

  it("refuses private database hosts before connecting, and stores allowed URLs encrypted with a masked hint", async () => {
    const { user, workspace } = await workspaceOf("hosts");
    for (const url of ["postgres://u:p@10.0.0.5/db", "postgres://u:p@localhost/db", "mongodb://u:p@169.254.169.254/db", "postgres://u:p@127.0.0.1:5432/db"]) {
      const kind = url.startsWith("mongodb") ? "mongodb" : "postgres";
      await expect(createProject({ workspaceId: workspace.id, actorId: user.id, input: { name: "x", database: { kind, url } } })).rejects.toMatchObject({
        code: "validation_failed",
        issues: [{ path: "database.url" }],
      });
    }
    process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1:5432";
    resetConfigForTests();
    const url = "postgres://owner:s3cret-pass@127.0.0.1:5432/customer";
    const project = await createProject({ workspaceId: workspace.id, actorId: user.id, input: { name: "Allowed", database: { kind: "postgres", url } } });
    expect(project.database).toEqual({ kind: "postgres", hint: "postgres://owner:****@127.0.0.1:5432/customer" });
    const [row] = await (await getPlatformDb()).select().from(projects).where(eq(projects.id, project.id));
    expect(row!.databaseUrlEncrypted).not.toContain("s3cret");
    expect(getProjectDatabaseTarget(row!)).toEqual({ projectId: project.id, workspaceId: workspace.id, kind: "postgres", url });
  });

  it("refuses a scheme that does not match the kind", async () => {
    const { user, workspace } = await workspaceOf("schemes");
    await expect(
      createProject({ workspaceId: workspace.id, actorId: user.id, input: { name: "x", database: { kind: "postgres", url: "mysql://u:p@db.example/x" } } }),
    ).rejects.toMatchObject({ code: "validation_failed" });
  });

  it("says plainly what is wrong with a connection, never echoing the password", async () => {
    const { user, workspace } = await workspaceOf("connection");
    const project = await createProject({ workspaceId: workspace.id, actorId: user.id, input: { name: "Conn" } });
    const blocked = await testDatabaseConnection({ projectId: project.id, input: { kind: "postgres", url: "postgres://u:topsecret@192.168.1.20/db" } });
    expect(blocked.ok).toBe(false);
    expect(blocked.message).toContain("private");
    expect(blocked.message).not.toContain("topsecret");

    process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1:1,127.0.0.1:5432";
    resetConfigForTests();
    const refused = await testDatabaseConnection({ projectId: project.id, input: { kind: "postgres", url: "postgres://u:topsecret@127.0.0.1:1/db" } });
    expect(refused.ok).toBe(false);
    expect(refused.message.toLowerCase()).toContain("refused");
    expect(refused.message).not.toContain("topsecret");

    const badPassword = await testDatabaseConnection({ projectId: project.id, input: { kind: "postgres", url: "postgres://no_such_role:topsecret@127.0.0.1:5432/postgres" } });
    expect(badPassword.ok).toBe(false);
    expect(badPassword.message).not.toContain("topsecret");

    expect((await testDatabaseConnection({ projectId: project.id, input: { kind: "local" } })).ok).toBe(true);
  });

  it("stores mail settings encrypted and reads them back", async () => {
    const { user, workspace } = await workspaceOf("mail");
    const project = await createProject({ workspaceId: workspace.id, actorId: user.id, input: { name: "Mail" } });
    // The SMTP host passes the outbound guard when saved: private hosts are refused on mail.host, nothing stored.
    for (const host of ["10.0.0.5", "localhost", "127.0.0.1"]) {
      const refused = await updateProject({ projectId: project.id, input: { mail: { host, port: 2525, from: "shop@example.test" } } }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: "validation_failed", status: 422, issues: [{ path: "mail.host", message: expect.stringMatching(/^outbound request refused: /) }] });
    }
    expect((await getProjectOrThrow({ projectId: project.id })).mailSettingsEncrypted).toBeNull();
    process.env.OUTBOUND_ALLOWED_HOSTS = "127.0.0.1:2525";
    resetConfigForTests();
    const updated = await updateProject({ projectId: project.id, input: { mail: { host: "127.0.0.1", port: 2525, user: "u", password: "mail-pass", from: "shop@example.test" } } });
    expect(updated.mail).toEqual({ configured: true });
    const row = await getProjectOrThrow({ projectId: project.id });
    expect(row.mailSettingsEncrypted).not.toContain("mail-pass");
    expect(getProjectMailSettings(row)).toMatchObject({ host: "127.0.0.1", port: 2525, password: "mail-pass" });
    await updateProject({ projectId: project.id, input: { mail: null } });
    expect(getProjectMailSettings(await getProjectOrThrow({ projectId: project.id }))).toBeNull();
    await expect(updateProject({ projectId: project.id, input: { logRetentionDays: 0 } })).rejects.toMatchObject({ code: "validation_failed" });
  });
});
