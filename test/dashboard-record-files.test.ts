import { describe, expect, vi } from "vitest";
import { FILE_LIMITS } from "@/lib/files/file-limits";
import { FILE_CHUNKS_COLLECTION, FILES_COLLECTION } from "@/lib/files/stored-file";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createRecord } from "@/lib/records-service/create-record";
import { createSchema } from "@/lib/schemas/create-schema";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { dashboardTest } from "@/test/support/dashboard-test";

/**
 * Records written from the dashboard (its records server actions) go through the same records
 * service as the records API, uploads included (issue 12): deleting a record, or clearing its file
 * field, deletes the file it held, description and chunks, when no other record uses it.
 */
vi.mock("next/headers", async () => (await import("@/test/support/dashboard-session")).nextHeadersModule());
vi.mock("next/cache", async () => (await import("@/test/support/dashboard-session")).nextCacheModule());

const actions = await import("@/app/(dashboard)/projects/[projectId]/records/actions");

const it = dashboardTest
  /** A `docs` schema with a file field, made before the file's first test. */
  .extend("docs", { scope: "file", auto: true }, async ({ project }) => {
    const store = await getProjectRecordStore({ projectId: project.projectId });
    await createSchema({
      projectId: project.projectId,
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

/** A docs record whose attachment was uploaded with it (two chunks and a description in the customer database). */
async function recordWithUpload(projectId: string, title: string): Promise<{ id: string; fileId: string }> {
  const store = await getProjectRecordStore({ projectId });
  const schemas = await listSchemas({ projectId });
  const schema = schemas.find((candidate) => candidate.name === "docs")!;
  const data = Buffer.alloc(FILE_LIMITS.chunkBytes + 10, 7);
  const record = await createRecord({
    store,
    schema,
    schemas,
    projectId,
    origin: "api",
    input: { title },
    uploads: [{ field: "attachment", filename: "report.bin", contentType: "application/octet-stream", data }],
  });
  const fileId = record.attachment as string;
  expect(await storedParts(projectId, fileId)).toEqual({ descriptions: 1, chunks: 2 });
  return { id: record.id, fileId };
}

async function storedParts(projectId: string, fileId: string): Promise<{ descriptions: number; chunks: number }> {
  const store = await getProjectRecordStore({ projectId });
  return {
    descriptions: (await store.findByIds(FILES_COLLECTION, [fileId])).length,
    chunks: await store.count(FILE_CHUNKS_COLLECTION, { where: [{ field: "fileId", op: "eq", value: fileId }] }),
  };
}

describe("files of records changed from the dashboard", () => {
  it("deletes a record's uploaded file, description and chunks, with the record", async ({ project }) => {
    const { id, fileId } = await recordWithUpload(project.projectId, "Delete me");
    expect(await actions.deleteRecordAction(project.projectId, "docs", id)).toEqual({ ok: true });
    expect(await storedParts(project.projectId, fileId)).toEqual({ descriptions: 0, chunks: 0 });
  });

  it("deletes the file a record no longer points at after an update, and keeps one another record still uses", async ({ project }) => {
    const { id, fileId } = await recordWithUpload(project.projectId, "Clear my file");
    const cleared = await actions.updateRecordAction(project.projectId, "docs", id, { attachment: null });
    expect(cleared.ok, JSON.stringify(cleared)).toBe(true);
    expect(await storedParts(project.projectId, fileId)).toEqual({ descriptions: 0, chunks: 0 });

    const shared = await recordWithUpload(project.projectId, "Original");
    const copy = await actions.createRecordAction(project.projectId, "docs", { title: "Copy", attachment: shared.fileId });
    expect(copy.ok, JSON.stringify(copy)).toBe(true);
    expect(await actions.deleteRecordAction(project.projectId, "docs", shared.id)).toEqual({ ok: true });
    expect(await storedParts(project.projectId, shared.fileId)).toEqual({ descriptions: 1, chunks: 2 });
    expect(await actions.deleteRecordAction(project.projectId, "docs", copy.ok ? copy.data.id : "")).toEqual({ ok: true });
    expect(await storedParts(project.projectId, shared.fileId)).toEqual({ descriptions: 0, chunks: 0 });
  });

  it("refuses a file id that names no stored file, as the records API does", async ({ project }) => {
    const created = await actions.createRecordAction(project.projectId, "docs", { title: "Made up", attachment: "fil_00000000000000000000000000" });
    expect(created).toMatchObject({ ok: false, code: "validation_failed", issues: [{ path: "attachment", message: 'no file has the id "fil_00000000000000000000000000"' }] });
  });
});
