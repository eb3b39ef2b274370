import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { decryptSecret } from "@/lib/crypto/secrets";
import { roleAllows } from "@/lib/auth/permissions";
import { AppError } from "@/lib/errors";
import { closePlatformDb, getPlatformDb } from "@/lib/platform-db/client";
import { projects, projectSecrets } from "@/lib/platform-db/schema";
import { createProjectFixture } from "@/test/fixtures";
import { createSecret } from "./create-secret";
import { deleteSecret } from "./delete-secret";
import { listSecrets } from "./list-secrets";
import { resolveProjectSecrets } from "./resolve-project-secrets";
import { rotateSecret } from "./rotate-secret";
import { secretEnvelopeScope } from "./secret-envelope-scope";
import { secretHint } from "./secret-hint";

afterAll(closePlatformDb);

const TOKEN = "sk_live_4f1c0ffee0ddba11cafe51f3a9";

async function storedRow(projectId: string, name: string) {
  const db = await getPlatformDb();
  const [row] = await db
    .select()
    .from(projectSecrets)
    .where(and(eq(projectSecrets.projectId, projectId), eq(projectSecrets.name, name)));
  return row;
}

async function expectAppError(promise: Promise<unknown>, code: AppError["code"]): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

describe("who manages secrets", () => {
  it("is admins among dashboard roles (members only use them in flows by name)", () => {
    expect(roleAllows("admin", "secrets.write")).toBe(true);
    expect(roleAllows("member", "secrets.write")).toBe(false);
    expect(roleAllows("member", "endpoints.update")).toBe(true);
  });
});

describe("secretHint", () => {
  it("shows only the ends of long values and nothing of short ones", () => {
    expect(secretHint(TOKEN)).toBe("sk_…f3a9");
    expect(secretHint("abcdefghijkl")).toBe("…kl");
    expect(secretHint("hunter2")).toBe("••••");
  });
});

describe("project secrets", () => {
  it("creates a secret encrypted and bound to its project and name, lists names and hints only", async () => {
    const { projectId } = await createProjectFixture("secrets create");
    const created = await createSecret({ projectId, input: { name: "API_TOKEN", value: TOKEN } });
    expect(created).toEqual({ name: "API_TOKEN", hint: "sk_…f3a9", createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    expect(JSON.stringify(created)).not.toContain(TOKEN);

    const row = await storedRow(projectId, "API_TOKEN");
    expect(row?.valueEncrypted).toMatch(/^v1:/);
    expect(row?.valueEncrypted).not.toContain(TOKEN);
    expect(row?.valueEncrypted).not.toContain(Buffer.from(TOKEN).toString("base64"));
    expect(decryptSecret(row!.valueEncrypted, secretEnvelopeScope(projectId, "API_TOKEN"))).toBe(TOKEN);
    // The envelope does not open as another secret or as a project-level value.
    expect(() => decryptSecret(row!.valueEncrypted, secretEnvelopeScope(projectId, "OTHER"))).toThrow(AppError);
    expect(() => decryptSecret(row!.valueEncrypted, { projectId })).toThrow(AppError);

    const listed = await listSecrets({ projectId });
    expect(listed).toEqual([{ name: "API_TOKEN", hint: "sk_…f3a9", createdAt: expect.any(Date), updatedAt: expect.any(Date) }]);
    expect(JSON.stringify(listed)).not.toContain(TOKEN);
  });

  it("validates names and values at the boundary", async () => {
    const { projectId } = await createProjectFixture("secrets validation");
    for (const input of [
      { name: "api_token", value: "x" },
      { name: "1TOKEN", value: "x" },
      { name: `A${"B".repeat(64)}`, value: "x" },
      { name: "TOKEN", value: "" },
      { name: "TOKEN", value: "x".repeat(8_193) },
      { name: "TOKEN" },
      { name: "TOKEN", value: "x", extra: true },
    ]) {
      const error = await expectAppError(createSecret({ projectId, input }), "validation_failed");
      expect(error.issues?.length).toBeGreaterThan(0);
    }
    await createSecret({ projectId, input: { name: "MAX_SIZE", value: "é".repeat(4_096) } });
    expect((await listSecrets({ projectId })).map((secret) => secret.name)).toEqual(["MAX_SIZE"]);
  });

  it("refuses a duplicate name with 409 and rotates explicitly; rotation and deletion reach resolve at once", async () => {
    const { projectId } = await createProjectFixture("secrets rotate");
    await createSecret({ projectId, input: { name: "API_TOKEN", value: TOKEN } });
    expect(await resolveProjectSecrets({ projectId, names: ["API_TOKEN", "NOT_THERE"] })).toEqual({ API_TOKEN: TOKEN });

    const conflict = await expectAppError(createSecret({ projectId, input: { name: "API_TOKEN", value: "other" } }), "conflict");
    expect(conflict.message).not.toContain(TOKEN);

    const before = await storedRow(projectId, "API_TOKEN");
    const rotated = await rotateSecret({ projectId, name: "API_TOKEN", input: { value: "rotated-value-0123456789abcd" } });
    expect(rotated.hint).toBe("rot…abcd");
    expect(rotated.updatedAt.getTime()).toBeGreaterThanOrEqual(before!.updatedAt.getTime());
    expect((await storedRow(projectId, "API_TOKEN"))?.valueEncrypted).not.toBe(before?.valueEncrypted);
    expect(await resolveProjectSecrets({ projectId, names: ["API_TOKEN"] })).toEqual({ API_TOKEN: "rotated-value-0123456789abcd" });

    await expectAppError(rotateSecret({ projectId, name: "MISSING", input: { value: "x" } }), "not_found");
    await expectAppError(rotateSecret({ projectId, name: "API_TOKEN", input: { value: "" } }), "validation_failed");

    await deleteSecret({ projectId, name: "API_TOKEN" });
    expect(await resolveProjectSecrets({ projectId, names: ["API_TOKEN"] })).toEqual({});
    await expectAppError(deleteSecret({ projectId, name: "API_TOKEN" }), "not_found");
  });

  it("keeps projects apart: the same name in two projects resolves to each project's own value", async () => {
    const first = await createProjectFixture("secrets first");
    const second = await createProjectFixture("secrets second");
    await createSecret({ projectId: first.projectId, input: { name: "SHARED", value: "first-value" } });
    await createSecret({ projectId: second.projectId, input: { name: "SHARED", value: "second-value" } });
    expect(await resolveProjectSecrets({ projectId: first.projectId, names: ["SHARED"] })).toEqual({ SHARED: "first-value" });
    expect(await resolveProjectSecrets({ projectId: second.projectId, names: ["SHARED"] })).toEqual({ SHARED: "second-value" });
    await expectAppError(deleteSecret({ projectId: first.projectId, name: "NOPE" }), "not_found");

    // A project's deletion takes its secrets with it.
    const db = await getPlatformDb();
    await db.delete(projects).where(eq(projects.id, second.projectId));
    expect(await storedRow(second.projectId, "SHARED")).toBeUndefined();
  });
});
