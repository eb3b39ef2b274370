import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FILE_LIMITS } from "@/lib/files/file-limits";
import { FILE_CHUNKS_COLLECTION, FILES_COLLECTION } from "@/lib/files/stored-file";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { createRecord } from "@/lib/records-service/create-record";
import { createSchema } from "@/lib/schemas/create-schema";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { dashboardSession } from "@/test/support/dashboard-session";

/**
 * Records written from the dashboard (its records server actions) go through the same records
 * service as the records API, uploads included (issue 12): deleting a record, or clearing its file
 * field, deletes the file it held, description and chunks, when no other record uses it.
 */
vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const actions = await import("@/app/(dashboard)/projects/[projectId]/records/actions");

let fixture: ProjectFixture;

beforeAll(async () => {
  fixture = await createProjectFixture("Dashboard record files");
  dashboardSession.cookie = fixture.owner.cookie;
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  await createSchema({
    projectId: fixture.projectId,
    store,
    definition: {
      name: "docs",
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "attachment", type: "file" },
      ],
    },
  });
});

afterAll(async () => {
  await closeAllRecordStores();
  await closePlatformDb();
});

/** A docs record whose attachment was uploaded with it (two chunks and a description in the customer database). */
async function recordWithUpload(title: string): Promise<{ id: string; fileId: string }> {
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  const schemas = await listSchemas({ projectId: fixture.projectId });
  const schema = schemas.find((candidate) => candidate.name === "docs")!;
  const data = Buffer.alloc(FILE_LIMITS.chunkBytes + 10, 7);
  const record = await createRecord({
    store,
    schema,
    schemas,
    projectId: fixture.projectId,
    origin: "api",
    input: { title },
    uploads: [{ field: "attachment", filename: "report.bin", contentType: "application/octet-stream", data }],
  });
  const fileId = record.attachment as string;
  expect(await storedParts(fileId)).toEqual({ descriptions: 1, chunks: 2 });
  return { id: record.id, fileId };
}

async function storedParts(fileId: string): Promise<{ descriptions: number; chunks: number }> {
  const store = await getProjectRecordStore({ projectId: fixture.projectId });
  return {
    descriptions: (await store.findByIds(FILES_COLLECTION, [fileId])).length,
    chunks: await store.count(FILE_CHUNKS_COLLECTION, { where: [{ field: "fileId", op: "eq", value: fileId }] }),
  };
}

describe("files of records changed from the dashboard", () => {
  it("deletes a record's uploaded file, description and chunks, with the record", async () => {
    const { id, fileId } = await recordWithUpload("Delete me");
    expect(await actions.deleteRecordAction(fixture.projectId, "docs", id)).toEqual({ ok: true });
    expect(await storedParts(fileId)).toEqual({ descriptions: 0, chunks: 0 });
  });

  it("deletes the file a record no longer points at after an update, and keeps one another record still uses", async () => {
    const { id, fileId } = await recordWithUpload("Clear my file");
    const cleared = await actions.updateRecordAction(fixture.projectId, "docs", id, { attachment: null });
    expect(cleared.ok, JSON.stringify(cleared)).toBe(true);
    expect(await storedParts(fileId)).toEqual({ descriptions: 0, chunks: 0 });

    const shared = await recordWithUpload("Original");
    const copy = await actions.createRecordAction(fixture.projectId, "docs", { title: "Copy", attachment: shared.fileId });
    expect(copy.ok, JSON.stringify(copy)).toBe(true);
    expect(await actions.deleteRecordAction(fixture.projectId, "docs", shared.id)).toEqual({ ok: true });
    expect(await storedParts(shared.fileId)).toEqual({ descriptions: 1, chunks: 2 });
    expect(await actions.deleteRecordAction(fixture.projectId, "docs", copy.ok ? copy.data.id : "")).toEqual({ ok: true });
    expect(await storedParts(shared.fileId)).toEqual({ descriptions: 0, chunks: 0 });
  });

  it("refuses a file id that names no stored file, as the records API does", async () => {
    const created = await actions.createRecordAction(fixture.projectId, "docs", { title: "Made up", attachment: "fil_00000000000000000000000000" });
    expect(created).toMatchObject({ ok: false, code: "validation_failed", issues: [{ path: "attachment", message: 'no file has the id "fil_00000000000000000000000000"' }] });
  });
});
