import { describe, expect, vi } from "vitest";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createRecord } from "@/lib/records-service/create-record";
import { TAKEN_UNIQUE_VALUE } from "@/lib/records-service/find-taken-unique-values";
import { createSchema } from "@/lib/schemas/create-schema";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { isAppError } from "@/lib/errors";
import { dashboardTest } from "@/test/support/dashboard-test";

/**
 * The dashboard's record form shows every problem of a refused save at its field at once (issue
 * 13): a taken unique value is reported together with the invalid values, not alone after they are
 * fixed. The records service (and so the records API) keeps its contract: 422 for invalid values,
 * 409 naming the field for a taken value.
 */
vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const actions = await import("@/app/(dashboard)/projects/[projectId]/records/actions");

const paths = (issues: readonly { path: string }[]) => issues.map((issue) => issue.path).sort();

const it = dashboardTest
  /** A `customers` schema with unique email and code, and Ada, whose values are taken; made before the file's first test. */
  .extend("taken", { scope: "file", auto: true }, async ({ project }) => {
    const store = await getProjectRecordStore({ projectId: project.projectId });
    await createSchema({
      projectId: project.projectId,
      store,
      definition: {
        name: "customers",
        kind: "collection",
        fields: [
          { name: "name", type: "string", required: true },
          { name: "email", type: "email", unique: true },
          { name: "code", type: "string", unique: true },
          { name: "age", type: "integer", min: 0 },
        ],
      },
    });
    const created = await actions.createRecordAction(project.projectId, "customers", { name: "Ada", email: "ada@example.com", code: "C-1", age: 36 });
    if (!created.ok) throw new Error(JSON.stringify(created));
    return created.data;
  });

describe("the record form's create action", () => {
  it("reports taken unique values together with the invalid and missing values", async ({ project }) => {
    const result = await actions.createRecordAction(project.projectId, "customers", { email: "ada@example.com", code: "C-1", age: -3 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(paths(result.issues)).toEqual(["age", "code", "email", "name"]);
    expect(result.issues.find((issue) => issue.path === "email")?.message).toBe(TAKEN_UNIQUE_VALUE);
    expect(result.code).toBe("validation_failed");
  });

  it("reports every taken value of an otherwise valid record, still as a conflict", async ({ project }) => {
    const result = await actions.createRecordAction(project.projectId, "customers", { name: "Eve", email: "ada@example.com", code: "C-1" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(paths(result.issues)).toEqual(["code", "email"]);
    expect(result.code).toBe("unique_violation");
  });

  it("answers the invalid values alone when no unique value is taken, and saves a valid record", async ({ project }) => {
    const refused = await actions.createRecordAction(project.projectId, "customers", { name: "Bob", email: "bob@example.com", age: -1 });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(paths(refused.issues)).toEqual(["age"]);
    const saved = await actions.createRecordAction(project.projectId, "customers", { name: "Bob", email: "bob@example.com", code: "C-2" });
    expect(saved.ok).toBe(true);
  });
});

describe("the record form's update action", () => {
  it("does not count a record's own unchanged value as taken", async ({ project, taken }) => {
    const result = await actions.updateRecordAction(project.projectId, "customers", taken.id, { email: "ada@example.com", age: -5 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(paths(result.issues)).toEqual(["age"]);
  });

  it("reports another record's value together with an invalid one", async ({ project }) => {
    const other = await actions.createRecordAction(project.projectId, "customers", { name: "Cy", code: "C-3" });
    if (!other.ok) throw new Error(JSON.stringify(other));
    const result = await actions.updateRecordAction(project.projectId, "customers", other.data.id, { code: "C-1", age: "old" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(paths(result.issues)).toEqual(["age", "code"]);
  });
});

describe("the records service behind the API", () => {
  it("keeps its contract: invalid values are a 422 without the taken value, a taken value alone a 409 naming it", async ({ project }) => {
    const store = await getProjectRecordStore({ projectId: project.projectId });
    const schemas = await listSchemas({ projectId: project.projectId });
    const schema = schemas.find((candidate) => candidate.name === "customers")!;
    const write = (input: unknown) => createRecord({ store, schema, schemas, projectId: project.projectId, origin: "api", input });
    const invalid = await write({ name: "Dan", email: "ada@example.com", age: -1 }).catch((error: unknown) => error);
    expect(isAppError(invalid) && invalid.code).toBe("validation_failed");
    expect(isAppError(invalid) && paths(invalid.issues ?? [])).toEqual(["age"]);
    const conflict = await write({ name: "Dan", email: "ada@example.com" }).catch((error: unknown) => error);
    expect(isAppError(conflict) && conflict.code).toBe("unique_violation");
    expect(isAppError(conflict) && conflict.field).toBe("email");
  });
});

describe("the record form's check after a refused upload", () => {
  it("names the unique fields another record holds, not the edited record's own", async ({ project, taken }) => {
    const forNew = await actions.findTakenUniqueValuesAction(project.projectId, "customers", null, { name: "Eve", email: "ada@example.com", code: "C-9", age: -1 });
    expect(forNew).toEqual({ ok: true, data: [{ path: "email", message: TAKEN_UNIQUE_VALUE }] });
    const forOwn = await actions.findTakenUniqueValuesAction(project.projectId, "customers", taken.id, { email: "ada@example.com", code: "C-1" });
    expect(forOwn).toEqual({ ok: true, data: [] });
  });

  it("checks its record id argument", async ({ project }) => {
    const malformed = await actions.findTakenUniqueValuesAction(project.projectId, "customers", { $ne: null } as unknown as string, { email: "ada@example.com" });
    expect(malformed).toMatchObject({ ok: false, code: "validation_failed", issues: [{ path: "recordId" }] });
  });
});
