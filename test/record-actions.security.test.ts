import { describe, expect, vi } from "vitest";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createSchema } from "@/lib/schemas/create-schema";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { crossTenantTest, itSweepsEveryAction } from "@/test/support/cross-tenant-actions";
import { dashboardSession } from "@/test/support/dashboard-session";

/**
 * Tenant isolation of the records dashboard's server actions (the record form and its relation
 * picker), against the real platform database and the projects' own customer databases: user B
 * calls every action with user A's ids (A's project; B's project with A's schema or record), and
 * each call is refused with nothing of A's revealed or changed. B's own calls succeed, so the
 * refusals are the membership and project checks. test/server-actions-inventory.test.ts requires
 * every action of the file to have a case in CASES below.
 */

vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const actions = await import("@/app/(dashboard)/projects/[projectId]/records/actions");

type Tenant = ProjectFixture & { schema: string; recordId: string; title: string };
interface Tenants {
  A: Tenant;
  B: Tenant;
}

async function withNotes(fixture: ProjectFixture, schema: string): Promise<Tenant> {
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  await createSchema({
    projectId: fixture.projectId,
    store,
    definition: {
      name: schema,
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "author", type: "relation", target: schema },
      ],
    },
  });
  const title = `Planted by ${fixture.projectId}`;
  dashboardSession.cookie = fixture.owner.cookie;
  const created = await actions.createRecordAction(fixture.projectId, schema, { title });
  if (!created.ok) throw new Error(JSON.stringify(created));
  return { ...fixture, schema, recordId: created.data.id, title };
}

/** Everything of A's an action could change: its records as stored. */
async function snapshot(tenant: Tenant): Promise<string> {
  const store = await getProjectRecordStore({ projectId: tenant.projectId });
  return JSON.stringify(await store.find(tenant.schema, { sort: [{ field: "id", direction: "asc" }] }));
}

function refusedWithoutLeak({ A }: Tenants, result: unknown, label: string): void {
  const value = result as { ok?: boolean; error?: string };
  expect(value.ok, label).not.toBe(true);
  expect(value.error, label).toMatch(/not found|holds records|has the id/i);
  const text = JSON.stringify(result);
  for (const secret of [A.title, "Planted by"]) expect(text, label).not.toContain(secret);
}

const it = crossTenantTest(async (): Promise<Tenants> => {
  const A = await withNotes(await createProjectFixture("Records of A"), "a_notes");
  const B = await withNotes(await createProjectFixture("Records of B"), "b_notes");
  dashboardSession.cookie = B.owner.cookie;
  return { A, B };
});

/** Each action, and every argument list B tries with A's ids. */
const CASES: Record<keyof typeof actions, (tenants: Tenants) => unknown[][]> = {
  createRecordAction: ({ A, B }) => [
    [A.projectId, A.schema, { title: "pwned" }],
    [B.projectId, A.schema, { title: "pwned" }],
  ],
  updateRecordAction: ({ A, B }) => [
    [A.projectId, A.schema, A.recordId, { title: "pwned" }],
    [B.projectId, B.schema, A.recordId, { title: "pwned" }],
    [B.projectId, A.schema, A.recordId, { title: "pwned" }],
  ],
  deleteRecordAction: ({ A, B }) => [
    [A.projectId, A.schema, A.recordId],
    [B.projectId, B.schema, A.recordId],
  ],
  findTakenUniqueValuesAction: ({ A, B }) => [
    [A.projectId, A.schema, null, { title: "Planted" }],
    [B.projectId, A.schema, A.recordId, { title: "Planted" }],
  ],
  searchRecordChoicesAction: ({ A, B }) => [
    [A.projectId, A.schema, ""],
    [A.projectId, A.schema, "Planted"],
    [A.projectId, A.schema, A.recordId],
    [B.projectId, A.schema, A.recordId],
  ],
};

describe("records server actions across tenants", () => {
  itSweepsEveryAction(it, { actions, cases: CASES, expectRefused: refusedWithoutLeak, snapshots: ({ A, B }) => [snapshot(A), snapshot(B)] });

  it("refuse the relation search of a signed-in user of no workspace of the project", async ({ tenants }) => {
    const { A, B } = tenants;
    const stranger = await createProjectFixture("Stranger");
    dashboardSession.cookie = stranger.owner.cookie;
    try {
      refusedWithoutLeak(tenants, await actions.searchRecordChoicesAction(A.projectId, A.schema, "Planted"), "search as a stranger");
      refusedWithoutLeak(tenants, await actions.searchRecordChoicesAction(stranger.projectId, A.schema, A.recordId), "search A's schema from the stranger's project");
    } finally {
      dashboardSession.cookie = B.owner.cookie;
    }
  });

  it("search only the caller's own database: A's record id typed in B's picker finds nothing", async ({ tenants }) => {
    const { A, B } = tenants;
    const found = await actions.searchRecordChoicesAction(B.projectId, B.schema, A.recordId);
    expect(found).toEqual({ ok: true, data: [] });
  });

  it("let B search its own records by text and by exact id, with a label and no more than short fields", async ({ tenants }) => {
    const { B } = tenants;
    const byText = await actions.searchRecordChoicesAction(B.projectId, B.schema, "planted BY");
    expect(byText).toEqual({ ok: true, data: [{ id: B.recordId, label: B.title, detail: "" }] });
    const byId = await actions.searchRecordChoicesAction(B.projectId, B.schema, B.recordId);
    expect(byId).toEqual({ ok: true, data: [{ id: B.recordId, label: B.title, detail: "" }] });
    const newest = await actions.searchRecordChoicesAction(B.projectId, B.schema, "");
    expect(newest.ok && newest.data.map((choice) => choice.id)).toEqual([B.recordId]);
  });

  it("check the search argument: text only", async ({ tenants }) => {
    const { B } = tenants;
    const malformed = await actions.searchRecordChoicesAction(B.projectId, B.schema, { $ne: null } as unknown as string);
    expect(malformed).toMatchObject({ ok: false, code: "validation_failed", issues: [{ path: "search" }] });
  });
});
