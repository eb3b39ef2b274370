import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { users } from "@/lib/platform-db/schema";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { createProject } from "@/lib/projects/create-project";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { getAuthSecret, sessionCookieName } from "@/lib/auth/session";
import { hashPassword } from "@/lib/auth/password";
import type { Permission } from "@/lib/auth/permissions";
import { createScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { externalRouteServerUrl } from "@/test/support/external-route-server";

/**
 * Test fixtures over the real platform database. Users are inserted without a password hash where a
 * password is not needed (scrypt at production cost is slow on purpose).
 */
export async function createTestUser(label = "owner"): Promise<{ id: string; email: string; cookie: string }> {
  const id = newId("user");
  const email = `${label}-${id}@example.test`;
  const db = await getPlatformDb();
  await db.insert(users).values({ id, email });
  return { id, email, cookie: await sessionCookieFor(id) };
}

/** The Cookie header value of a signed-in dashboard session, made exactly as next-auth makes it. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const token = await encode({ token: { uid: userId, sub: userId }, secret: getAuthSecret() });
  return `${sessionCookieName()}=${token}`;
}

/** Gives a test user a password, so that it can sign in through next-auth (one scrypt hash, slow on purpose). */
export async function setTestUserPassword(userId: string, password: string): Promise<void> {
  const db = await getPlatformDb();
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, userId));
}

export interface ProjectFixture {
  owner: { id: string; email: string; cookie: string };
  workspaceId: string;
  projectId: string;
  keyFor(permissions: Permission[]): Promise<string>;
}

/**
 * Against an external server (ROUTE_TEST_BASE_URL) the project's records must be where both processes
 * reach them, and a serverless app refuses the built-in database: each project gets a PostgreSQL
 * database of its own on the DATABASE_URL server (one database, one project), named after the platform
 * database so that whoever drops that one finds them (scripts/test-serverless.sh).
 */
async function sharedProjectDatabase(): Promise<{ kind: "postgres"; url: string } | undefined> {
  if (!externalRouteServerUrl) return undefined;
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("ROUTE_TEST_BASE_URL needs DATABASE_URL: the external server and the tests share the platform database");
  const platformDatabase = decodeURIComponent(new URL(serverUrl).pathname.slice(1));
  return { kind: "postgres", url: (await createScratchDatabase(serverUrl, `${platformDatabase}_prj`)).url };
}

export async function createProjectFixture(name = "Test project"): Promise<ProjectFixture> {
  const owner = await createTestUser();
  const workspace = await createWorkspace({ userId: owner.id, name: `Workspace of ${owner.email}` });
  const database = await sharedProjectDatabase();
  const project = await createProject({ workspaceId: workspace.id, actorId: owner.id, input: { name, ...(database ? { database } : {}) } });
  return {
    owner,
    workspaceId: workspace.id,
    projectId: project.id,
    keyFor: async (permissions) => (await createApiKey({ projectId: project.id, input: { name: "test key", permissions } })).key,
  };
}

export async function createRevokedKey(projectId: string, permissions: Permission[]): Promise<string> {
  const created = await createApiKey({ projectId, input: { name: "revoked", permissions } });
  await revokeApiKey({ projectId, keyId: created.id });
  return created.key;
}
