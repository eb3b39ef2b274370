import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { FILE_CHUNKS_COLLECTION, FILES_COLLECTION } from "@/lib/files/stored-file";
import type { RecordUpload } from "@/lib/files/store-record-uploads";
import type { RecordStore } from "@/lib/records/record-store";
import { parseSchemaDefinition } from "@/lib/schemas/schema-definition";
import { createRecord } from "./create-record";
import { deleteRecord } from "./delete-record";
import { recordStoreBackends, type OpenedRecordStore } from "./testing/record-store-backends";
import { updateFirstRecord } from "./update-first-record";
import { updateRecord } from "./update-record";

/**
 * Uploads are part of the records service's one write path (issue 12): whichever service writes,
 * files are stored only for a write that passes its checks, removed again when the write fails,
 * and released when the record no longer points at them, flow writes included.
 */
const docs = parseSchemaDefinition({
  name: "docs",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "slug", type: "string", unique: true },
    { name: "attachment", type: "file" },
    { name: "card", type: "component", component: "card" },
  ],
});
const card = parseSchemaDefinition({ name: "card", kind: "component", fields: [{ name: "image", type: "file" }] });
const schemas = [docs, card];

const upload = (text: string): RecordUpload => ({ field: "attachment", filename: `${text}.txt`, contentType: "text/plain", data: Buffer.from(text) });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
  throw new Error("expected an AppError");
}

for (const backend of recordStoreBackends()) {
  describe(`record files on ${backend.name}`, () => {
    let opened: OpenedRecordStore;
    let store: RecordStore;
    const common = () => ({ store, projectId: opened.projectId, schema: docs, schemas, origin: "flow" as const });
    const stored = async () => ({ files: await store.count(FILES_COLLECTION), chunks: await store.count(FILE_CHUNKS_COLLECTION) });

    beforeAll(async () => {
      opened = await backend.open();
      store = opened.store;
      await store.ensureUniqueIndex("docs", "slug");
    });

    afterAll(async () => {
      await opened?.cleanup();
    });

    it("releases the file a flow update replaces, and a deleted record's file", async () => {
      const record = await createRecord({ ...common(), input: { title: "Flow" }, uploads: [upload("first")] });
      expect(await stored()).toEqual({ files: 1, chunks: 1 });

      const replaced = await updateFirstRecord({ ...common(), where: [{ field: "id", op: "eq", value: record.id }], input: {}, uploads: [upload("second")] });
      expect(replaced.record?.attachment).not.toBe(record.attachment);
      expect(await store.findByIds(FILES_COLLECTION, [record.attachment as string])).toEqual([]);
      expect(await stored()).toEqual({ files: 1, chunks: 1 });

      await deleteRecord({ ...common(), id: record.id });
      expect(await stored()).toEqual({ files: 0, chunks: 0 });
    });

    it("stores nothing for a write its checks refuse, and removes uploads of a write that fails or matches nothing", async () => {
      expect(await codeOf(createRecord({ ...common(), input: {}, uploads: [upload("invalid")] }))).toBe("validation_failed");
      expect(await codeOf(createRecord({ ...common(), input: { title: "Bad", attachment: "fil_unknown" }, uploads: [] }))).toBe("validation_failed");

      const taken = await createRecord({ ...common(), input: { title: "Taken", slug: "taken" } });
      expect(await codeOf(createRecord({ ...common(), input: { title: "Again", slug: "taken" }, uploads: [upload("refused")] }))).toBe("unique_violation");
      expect(await codeOf(updateRecord({ ...common(), id: "rec_missing", input: {}, uploads: [upload("nowhere")] }))).toBe("not_found");
      const unmatched = await updateFirstRecord({ ...common(), where: [{ field: "title", op: "eq", value: "nobody" }], input: {}, uploads: [upload("nobody")] });
      expect(unmatched.matched).toBe(false);
      expect(await stored()).toEqual({ files: 0, chunks: 0 });
      await deleteRecord({ ...common(), id: taken.id });
    });

    it("keeps a file uploaded into a component to its record: a flow may not copy it, nor keep it by conditions; updates by id do", async () => {
      const nested: RecordUpload = { ...upload("nested"), field: "card.image" };
      const owner = await createRecord({ ...common(), input: { title: "Owner", card: {} }, uploads: [nested] });
      const fileId = (owner.card as { image: string }).image;
      expect(await store.findByIds(FILES_COLLECTION, [fileId])).toMatchObject([{ schema: "docs", field: "card.image", record: owner.id }]);

      expect(await codeOf(createRecord({ ...common(), input: { title: "Copy", card: { image: fileId } } }))).toBe("validation_failed");
      const byTitle = [{ field: "title", op: "eq" as const, value: "Owner" }];
      expect(await codeOf(updateFirstRecord({ ...common(), where: byTitle, input: { card: { image: fileId } } }))).toBe("validation_failed");
      expect(await codeOf(updateFirstRecord({ ...common(), where: byTitle, input: { card: {} }, uploads: [nested] }))).toBe("internal");
      const kept = await updateRecord({ ...common(), id: owner.id, input: { card: { image: fileId } } });
      expect(kept.card).toEqual({ image: fileId });

      await updateRecord({ ...common(), id: owner.id, input: { card: null } });
      expect(await stored()).toEqual({ files: 0, chunks: 0 });
      await deleteRecord({ ...common(), id: owner.id });
    });
  });
}
