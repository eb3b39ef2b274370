import { rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { storeFile } from "@/lib/files/store-file";
import { newId } from "@/lib/ids";
import { getRecordStore } from "@/lib/records/get-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { createScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { parseSchemaDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { createRecord } from "./create-record";
import { importRecords, type ImportLimits, type ImportProgress } from "./import-records";
import { onRecordChange, type RecordChangeEvent } from "./record-events";

/**
 * The import service on real databases (PGlite always, PostgreSQL when DATABASE_URL is set), with
 * small batches so that every batch boundary case happens in a few lines. The records API route
 * over HTTP is tested in test/routes/records-import.*.test.ts.
 */
const authors = parseSchemaDefinition({ name: "authors", kind: "collection", fields: [{ name: "name", type: "string", required: true }] });
const posts = parseSchemaDefinition({
  name: "posts",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "slug", type: "string", unique: true },
    { name: "code", type: "integer", unique: true },
    { name: "status", type: "enum", values: ["draft", "live"], default: "draft" },
    { name: "author", type: "relation", target: "authors" },
    { name: "tags", type: "relation", target: "authors", many: true },
    { name: "cover", type: "file" },
  ],
});
const schemas: SchemaDefinition[] = [authors, posts];

interface Backend {
  name: string;
  open(): Promise<{ store: RecordStore; cleanup(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: "PGlite",
    async open() {
      const projectId = newId("project");
      const store = getRecordStore({ projectId, kind: "local" });
      return {
        store,
        async cleanup() {
          await store.close();
          await rm(path.resolve(getConfig().DATA_DIR, "projects", projectId), { recursive: true, force: true });
        },
      };
    },
  },
  ...(process.env.DATABASE_URL
    ? [
        {
          name: "PostgreSQL",
          async open() {
            const scratch = await createScratchDatabase(process.env.DATABASE_URL!, "flowpoint_h_import_svc");
            const store = getRecordStore({ projectId: newId("project"), kind: "postgres", url: scratch.url });
            return {
              store,
              async cleanup() {
                await store.close();
                await scratch.drop();
              },
            };
          },
        },
      ]
    : []),
];

const ndjson = (lines: unknown[]): string => lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n");

for (const backend of BACKENDS) {
  describe(`importRecords on ${backend.name}`, () => {
    let store: RecordStore;
    let cleanup: () => Promise<void>;
    let authorIds: string[];

    beforeAll(async () => {
      ({ store, cleanup } = await backend.open());
      await store.ensureUniqueIndex("posts", "slug");
      await store.ensureUniqueIndex("posts", "code");
      authorIds = [];
      for (const name of ["Ada", "Grace"]) authorIds.push((await createRecord({ store, schema: authors, schemas, projectId: "prj_test", origin: "api", input: { name } })).id);
    });
    afterAll(async () => {
      await cleanup?.();
    });

    const run = (source: string | Array<string | Uint8Array>, limits: Partial<ImportLimits> = {}, onProgress?: (progress: ImportProgress) => void) =>
      importRecords({ store, schema: posts, schemas, source: typeof source === "string" ? [source] : source, limits: { batchSize: 3, ...limits }, onProgress });

    it("writes valid lines in batches, in the file's order, reporting progress after each batch", async () => {
      await store.deleteMany("posts", []);
      const lines = Array.from({ length: 8 }, (_, index) => ({ title: `Post ${index}`, slug: `post-${index}`, code: index, author: authorIds[index % 2] }));
      const progress: ImportProgress[] = [];
      const events: RecordChangeEvent[] = [];
      const stop = onRecordChange((event) => void events.push(event));
      try {
        // A blank line and CRLF line breaks, in chunks that cut lines in the middle.
        const text = `${ndjson(lines.slice(0, 4))}\r\n\r\n${ndjson(lines.slice(4))}\r\n`;
        const result = await run([text.slice(0, 50), text.slice(50, 51), text.slice(51)], {}, (update) => progress.push(update));
        expect(result).toEqual({ imported: 8, failedCount: 0, failed: [] });
      } finally {
        stop();
      }
      // Imports emit no record events (automations do not fire for bulk loads).
      expect(events).toEqual([]);
      expect(progress.map((update) => update.imported)).toEqual([3, 6, 8, 8]);
      expect(progress.at(-1)).toEqual({ linesRead: 9, imported: 8, failedCount: 0 });
      const stored = await store.find("posts", {});
      expect(stored.map((record) => record.title)).toEqual(lines.map((line) => line.title));
      expect(stored[0]).toMatchObject({ id: expect.stringMatching(/^rec_/), status: "draft", tags: [], cover: null, author: authorIds[0] });
    });

    it("reports each failing line with its number and the issues of a single create, and writes the rest", async () => {
      await store.deleteMany("posts", []);
      await createRecord({ store, schema: posts, schemas, projectId: "prj_test", origin: "api", input: { title: "Existing", slug: "taken", code: 1000 } });
      const file = await storeFile({ store, filename: "a.png", contentType: "image/png", data: Buffer.from("png"), schema: "posts", field: "cover" });
      const otherFieldFile = await storeFile({ store, filename: "b.png", contentType: "image/png", data: Buffer.from("png"), schema: "authors", field: "photo" });
      const text = ndjson([
        { title: "ok 1", slug: "a", code: 1, cover: file.id }, // 1
        "{not json", // 2
        "[1, 2]", // 3
        "", // 4 (blank)
        { slug: "no-title" }, // 5
        { title: "bad status", status: "gone" }, // 6
        { title: "system", id: "rec_mine" }, // 7
        { title: "dup in batch", slug: "a" }, // 8 (same batch as line 1)
        { title: "taken", slug: "taken" }, // 9
        { title: "ok 2", slug: "b", code: 2, tags: [authorIds[0], authorIds[1]] }, // 10
        { title: "no author", author: "rec_missing" }, // 11
        { title: "bad tag", tags: [authorIds[0], "rec_gone"] }, // 12
        { title: "dup across batches", slug: "b" }, // 13 (line 10 is in the batch before)
        { title: "no file", cover: "fil_missing" }, // 14
        { title: "other field's file", cover: otherFieldFile.id }, // 15
        { title: "unknown field", color: "red" }, // 16
        { title: "taken code", code: 1000 }, // 17
        { title: "ok 3", code: 3 }, // 18
      ]);
      const result = await run(text);
      expect(result.imported).toBe(3);
      expect(result.failedCount).toBe(14);
      const byLine = Object.fromEntries(result.failed.map((failure) => [failure.line, failure.issues]));
      expect(Object.keys(byLine).map(Number)).toEqual([2, 3, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17]);
      expect(byLine[2]).toEqual([{ path: "", message: "the line is not valid JSON" }]);
      expect(byLine[3]).toEqual([{ path: "", message: "must be a JSON object" }]);
      expect(byLine[5]).toEqual([{ path: "title", message: expect.any(String) }]);
      expect(byLine[6]).toEqual([{ path: "status", message: expect.stringContaining("draft") }]);
      expect(byLine[7]).toEqual([{ path: "id", message: expect.stringContaining("set by the server") }]);
      expect(byLine[8]).toEqual([{ path: "slug", message: "must be unique: line 1 of this import has the same value" }]);
      expect(byLine[9]).toEqual([{ path: "slug", message: "must be unique: another record already has this value" }]);
      expect(byLine[11]).toEqual([{ path: "author", message: 'no authors record has the id "rec_missing"' }]);
      expect(byLine[12]).toEqual([{ path: "tags.1", message: 'no authors record has the id "rec_gone"' }]);
      expect(byLine[13]).toEqual([{ path: "slug", message: "must be unique: another record already has this value" }]);
      expect(byLine[14]).toEqual([{ path: "cover", message: 'no file has the id "fil_missing"' }]);
      expect(byLine[15]).toEqual([{ path: "cover", message: expect.stringContaining("uploaded for another field") }]);
      expect(byLine[16]).toEqual([{ path: "color", message: expect.any(String) }]);
      expect(byLine[17]).toEqual([{ path: "code", message: "must be unique: another record already has this value" }]);
      const titles = (await store.find("posts", {})).map((record) => record.title);
      expect(titles).toEqual(["Existing", "ok 1", "ok 2", "ok 3"]);
    });

    it("answers a line over the byte limit as a failure and reads on", async () => {
      await store.deleteMany("posts", []);
      const result = await run(ndjson([{ title: "x".repeat(200) }, { title: "short" }]), { maxLineBytes: 100 });
      expect(result).toEqual({ imported: 1, failedCount: 1, failed: [{ line: 1, issues: [{ path: "", message: "the line is longer than 100 bytes" }] }] });
    });

    it("fails a line whose text the database cannot store, as a single create would", async () => {
      await store.deleteMany("posts", []);
      const result = await run(['{"title":"ok"}\n{"title":"bad \\ud800 half"}\n{"title":"fine"}\n']);
      expect(result.imported).toBe(2);
      expect(result.failed).toEqual([{ line: 2, issues: [{ path: "title", message: expect.stringContaining("surrogate") }] }]);
    });

    it("lists the first failures by line number and counts them all", async () => {
      await store.deleteMany("posts", []);
      const lines = Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? { title: `t${index}`, slug: "same" } : "oops"));
      const result = await run(ndjson(lines), { listedFailures: 5 });
      expect(result.imported).toBe(1);
      expect(result.failedCount).toBe(29);
      expect(result.failed.map((failure) => failure.line)).toEqual([2, 3, 4, 5, 6]);
    });

    it("stops at the line cap with 413, keeping what came before", async () => {
      await store.deleteMany("posts", []);
      const lines = Array.from({ length: 7 }, (_, index) => ({ title: `t${index}` }));
      const error = await run(ndjson(lines), { maxLines: 5 }).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("payload_too_large");
      expect((error as AppError).message).toBe("an import reads at most 5 lines: it stopped before line 6 after importing 5 records (0 lines failed); import the rest separately");
      expect(await store.count("posts")).toBe(5);
    });

    it("writes a batch one record at a time when another writer takes its values meanwhile", async () => {
      await store.deleteMany("posts", []);
      // A real store whose insertMany lets a competing write in first, twice.
      let competing = 0;
      const racing: RecordStore = Object.create(store, {
        insertMany: {
          value: async (collection: string, documents: Record<string, unknown>[], options?: object) => {
            if (competing < 2) await store.insert("posts", { title: "competitor", slug: `race-${competing++}` });
            return store.insertMany(collection, documents, options);
          },
        },
      }) as RecordStore;
      const result = await importRecords({
        store: racing,
        schema: posts,
        schemas,
        source: [
          ndjson([
            { title: "a", slug: "race-0" },
            { title: "b", slug: "race-1" },
            { title: "c", slug: "free" },
          ]),
        ],
        limits: { batchSize: 10 },
      });
      expect(result).toEqual({
        imported: 1,
        failedCount: 2,
        failed: [
          { line: 1, issues: [{ path: "slug", message: "must be unique: another record already has this value" }] },
          { line: 2, issues: [{ path: "slug", message: "must be unique: another record already has this value" }] },
        ],
      });
      expect((await store.find("posts", {})).map((record) => record.title)).toEqual(["competitor", "competitor", "c"]);
    });
  });
}
