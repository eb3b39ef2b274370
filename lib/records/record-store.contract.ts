import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError, type ErrorCode } from "@/lib/errors";
import type { FieldCondition, RecordStore, StoredRecord } from "./record-store";

/** One backend the contract runs against. */
export interface RecordStoreContractBackend {
  /** Appears in the describe title: "<name> record store contract". */
  name: string;
  /**
   * Opens a store over this run's database (already empty when the suite starts). Called more
   * than once: the suite closes stores of its own.
   */
  open(): Promise<RecordStore>;
  /** Runs once after the suite: drop the database, remove the directory. */
  cleanup?(): Promise<void>;
}

async function expectAppError(promise: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected AppError("${code}")`).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}

const DRIVER_TEXT = /duplicate key|E11000|violates|constraint|postgres|mongo|relation|syntax|jsonb/i;

function ids(records: StoredRecord[]): string[] {
  return records.map((record) => record.id);
}

function byCreatedThenId(a: StoredRecord, b: StoredRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The record store contract: every implementation must pass all of it. Registers one describe
 * block with the whole suite; each test works in collections of its own.
 */
export function registerRecordStoreContract(backend: RecordStoreContractBackend): void {
  describe(`${backend.name} record store contract`, () => {
    let store: RecordStore;
    let counter = 0;
    const fresh = (name: string) => `${name}_${(counter += 1)}_${randomBytes(3).toString("hex")}`;

    async function seedOneByOne(collection: string, documents: Record<string, unknown>[]): Promise<StoredRecord[]> {
      const out: StoredRecord[] = [];
      for (const document of documents) out.push(await store.insert(collection, document));
      return out;
    }

    const seed = seedOneByOne;

    async function names(collection: string, where: FieldCondition[], field = "name"): Promise<unknown[]> {
      const records = await store.find(collection, { where, sort: [{ field, direction: "asc" }] });
      return records.map((record) => record[field]);
    }

    beforeAll(async () => {
      store = await backend.open();
      await store.ping({ timeoutMs: 60_000 }); // opening an embedded database can take a while
    });

    afterAll(async () => {
      await store?.close();
      await backend.cleanup?.();
    });

    describe("insert", () => {
      it("assigns an id and the timestamps and answers the stored record", async () => {
        const collection = fresh("tickets");
        const before = new Date().toISOString();
        const record = await store.insert(collection, { title: "Printer on fire", priority: 2 });
        expect(record.id).toMatch(/^rec_[0-9a-z]{26}$/);
        expect(record.createdAt).toBe(record.updatedAt);
        expect(new Date(record.createdAt).toISOString()).toBe(record.createdAt);
        expect(record.createdAt >= before).toBe(true);
        expect(record).toEqual({ id: record.id, title: "Printer on fire", priority: 2, createdAt: record.createdAt, updatedAt: record.updatedAt });
        expect(await store.find(collection)).toEqual([record]);
      });

      it("keeps a given id and refuses a second record with it (unique_violation on id)", async () => {
        const collection = fresh("tickets");
        const record = await store.insert(collection, { id: "exe_custom-1", title: "a" });
        expect(record.id).toBe("exe_custom-1");
        const error = await expectAppError(store.insert(collection, { id: "exe_custom-1", title: "b" }), "unique_violation");
        expect(error.field).toBe("id");
        expect(error.message).not.toMatch(DRIVER_TEXT);
        expect(await store.count(collection)).toBe(1);
      });

      it("refuses system fields, _id and malformed ids", async () => {
        const collection = fresh("tickets");
        for (const [document, path] of [
          [{ createdAt: "2020-01-01T00:00:00.000Z" }, "createdAt"],
          [{ updatedAt: "2020-01-01T00:00:00.000Z" }, "updatedAt"],
          [{ _id: "x" }, "_id"],
          [{ id: "has space" }, "id"],
          [{ id: "" }, "id"],
          [{ id: 5 }, "id"],
          [{ id: "a/b" }, "id"],
        ] as const) {
          const error = await expectAppError(store.insert(collection, document), "validation_failed");
          expect(error.issues?.map((issue) => issue.path)).toEqual([path]);
        }
        expect(await store.count(collection)).toBe(0);
      });

      it("stores JSON values as given: nesting, unicode, numbers, booleans, null; Dates as ISO text; undefined dropped", async () => {
        const collection = fresh("values");
        const document = {
          text: 'héllo wörld 🌍 — "quoted" \\ back',
          integer: 9007199254740991,
          decimal: -1.5e-7,
          yes: true,
          no: false,
          nothing: null,
          list: [1, "two", { three: 3 }, [4], null],
          nested: { deeper: { deepest: { leaf: "x" } }, empty: {}, none: [] },
          when: new Date("2024-05-06T07:08:09.010Z"),
          skipped: undefined,
        };
        const record = await store.insert(collection, document);
        const expected = { ...document, when: "2024-05-06T07:08:09.010Z" } as Record<string, unknown>;
        delete expected.skipped;
        const [stored] = await store.findByIds(collection, [record.id]);
        expect(stored).toEqual({ id: record.id, ...expected, createdAt: record.createdAt, updatedAt: record.updatedAt });
        expect(stored && "skipped" in stored).toBe(false);
        expect(Object.keys(stored ?? {})[0]).toBe("id");
        expect(Object.keys(stored ?? {}).slice(-2)).toEqual(["createdAt", "updatedAt"]);
      });

      it("refuses values that are not JSON or cannot be stored everywhere", async () => {
        const collection = fresh("values");
        for (const [document, path] of [
          [{ n: Number.NaN }, "n"],
          [{ n: Number.POSITIVE_INFINITY }, "n"],
          [{ s: "nul\u0000byte" }, "s"],
          [{ s: "lone\ud800surrogate" }, "s"],
          [{ o: { "k\udc00": 1 } }, "o.k\udc00"],
          [{ f: () => 1 }, "f"],
          [{ big: BigInt(1) }, "big"],
          [{ m: new Map() }, "m"],
        ] as const) {
          const error = await expectAppError(store.insert(collection, document as Record<string, unknown>), "validation_failed");
          expect(error.issues?.map((issue) => issue.path)).toEqual([path]);
        }
        await expectAppError(store.insert(collection, [] as unknown as Record<string, unknown>), "validation_failed");
        await expectAppError(store.insert(collection, null as unknown as Record<string, unknown>), "validation_failed");
      });
    });

    describe("outbox entries written with a write", () => {
      const entryFor = async (outbox: string, id: string) => (await store.findByIds(outbox, [id]))[0];

      it("stores the entry with the inserted record, creating the outbox collection", async () => {
        const [collection, outbox] = [fresh("boxed"), fresh("outbox")];
        const record = await store.insert(collection, { name: "Ada" }, { outbox: { collection: outbox, id: "evt_1", event: { type: "create", schema: "people" } } });
        const entry = await entryFor(outbox, "evt_1");
        expect(entry).toMatchObject({
          id: "evt_1",
          event: { type: "create", schema: "people" },
          record: { id: record.id, name: "Ada", createdAt: record.createdAt },
          previous: null,
        });
      });

      it("stores the record before and after an update, and nothing when nothing matched", async () => {
        const [collection, outbox] = [fresh("boxed"), fresh("outbox")];
        const [record] = await seed(collection, [{ name: "Ada", role: "dev" }]);
        const result = await store.updateFirst(
          collection,
          [{ field: "id", op: "eq", value: record!.id }],
          { role: "lead" },
          { outbox: { collection: outbox, id: "evt_up", event: { type: "update" } } },
        );
        expect(result.matched).toBe(true);
        expect(await entryFor(outbox, "evt_up")).toMatchObject({ event: { type: "update" }, record: { id: record!.id, role: "lead" }, previous: { id: record!.id, role: "dev" } });
        const missed = await store.updateFirst(
          collection,
          [{ field: "id", op: "eq", value: "nobody" }],
          { role: "x" },
          { outbox: { collection: outbox, id: "evt_none", event: {} } },
        );
        expect(missed.matched).toBe(false);
        expect(await entryFor(outbox, "evt_none")).toBeUndefined();
      });

      it("stores the record as it was with a delete", async () => {
        const [collection, outbox] = [fresh("boxed"), fresh("outbox")];
        const [record] = await seed(collection, [{ name: "Gone" }]);
        expect(
          await store.deleteMany(collection, [{ field: "id", op: "eq", value: record!.id }], { outbox: { collection: outbox, id: "evt_del", event: { type: "delete" } } }),
        ).toBe(1);
        expect(await entryFor(outbox, "evt_del")).toMatchObject({ record: { id: record!.id, name: "Gone" }, previous: null });
        expect(await store.deleteMany(collection, [{ field: "id", op: "eq", value: record!.id }], { outbox: { collection: outbox, id: "evt_del2", event: {} } })).toBe(0);
        expect(await entryFor(outbox, "evt_del2")).toBeUndefined();
      });

      it("writes no entry when the write is refused", async () => {
        const [collection, outbox] = [fresh("boxed"), fresh("outbox")];
        await store.insert(collection, { id: "taken", name: "first" });
        await expectAppError(store.insert(collection, { id: "taken", name: "second" }, { outbox: { collection: outbox, id: "evt_refused", event: {} } }), "unique_violation");
        expect(await entryFor(outbox, "evt_refused")).toBeUndefined();
      });
    });

    describe("insertMany", () => {
      it("stores a batch in one round trip and answers the records in order, creating the collection", async () => {
        const collection = fresh("batch");
        const before = store.metrics.queries;
        const records = await store.insertMany(collection, [{ title: "one", n: 1 }, { id: "given_2", title: "two", nested: { a: [1, "x"] } }, { title: "három ✓" }]);
        expect(records.map((record) => record.title)).toEqual(["one", "two", "három ✓"]);
        expect(records[1]!.id).toBe("given_2");
        expect(records[0]!.id).toMatch(/^rec_/);
        for (const record of records) expect(record.createdAt).toBe(record.updatedAt);
        const stored = await store.findByIds(collection, ids(records));
        expect(stored).toEqual(records);
        // The collection did not exist: a failed first attempt, its creation and the retry at most.
        expect(store.metrics.queries - before).toBeLessThanOrEqual(4);

        const again = store.metrics.queries;
        await store.insertMany(
          collection,
          Array.from({ length: 200 }, (_, index) => ({ index })),
        );
        expect(store.metrics.queries - again).toBe(1);
        expect(await store.count(collection)).toBe(203);
        expect(await store.insertMany(collection, [])).toEqual([]);
      });

      it("checks every document first and stores nothing when one is bad, naming its index", async () => {
        const collection = fresh("batch");
        await store.insert(collection, { seed: true });
        const error = await expectAppError(store.insertMany(collection, [{ ok: 1 }, { $bad: 1 }, { createdAt: "x" }]), "validation_failed");
        expect(error.issues?.map((issue) => issue.path)).toEqual(["1.$bad", "2.createdAt"]);
        await expectAppError(
          store.insertMany(
            collection,
            Array.from({ length: 1001 }, () => ({})),
          ),
          "validation_failed",
        );
        await expectAppError(store.insertMany(collection, "nope" as unknown as Record<string, unknown>[]), "validation_failed");
        expect(await store.count(collection)).toBe(1);
      });

      it("answers unique_violation for a taken id or unique value without driver text", async () => {
        const collection = fresh("batch");
        await store.ensureUniqueIndex(collection, "email");
        await store.insert(collection, { id: "taken", email: "ada@example.com" });
        const byId = await expectAppError(store.insertMany(collection, [{ id: "taken" }]), "unique_violation");
        expect(byId.field).toBe("id");
        const byValue = await expectAppError(store.insertMany(collection, [{ email: "ada@example.com" }]), "unique_violation");
        expect(byValue.field).toBe("email");
        expect(byValue.message).not.toMatch(DRIVER_TEXT);
        if (store.kind !== "mongodb") {
          // All or nothing on PostgreSQL and PGlite.
          await expectAppError(store.insertMany(collection, [{ email: "new@example.com" }, { email: "ada@example.com" }]), "unique_violation");
          expect(await store.count(collection)).toBe(1);
        }
      });
    });

    describe("keys starting with $ or containing . are refused on write, at any depth", () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ $where: "1" }, "$where"],
        [{ "a.b": 1 }, "a.b"],
        [{ profile: { address: { $set: { city: "x" } } } }, "profile.address.$set"],
        [{ list: [{ fine: 1 }, { "x.y": 2 }] }, "list.1.x.y"],
        [{ deep: [[{ $gt: "" }]] }, "deep.0.0.$gt"],
        [{ "": 1 }, ""],
      ];

      it("on insert, naming each bad key in issues[].path", async () => {
        const collection = fresh("keys");
        for (const [document, path] of cases) {
          const error = await expectAppError(store.insert(collection, document), "validation_failed");
          expect(error.issues?.map((issue) => issue.path)).toEqual([path]);
        }
        const error = await expectAppError(store.insert(collection, { $a: 1, ok: { "b.c": 2 } }), "validation_failed");
        expect(error.issues?.map((issue) => issue.path)).toEqual(["$a", "ok.b.c"]);
        expect(await store.count(collection)).toBe(0);
      });

      it("on updateFirst, leaving the record unchanged", async () => {
        const collection = fresh("keys");
        const record = await store.insert(collection, { name: "a" });
        for (const [changes, path] of cases) {
          const error = await expectAppError(store.updateFirst(collection, [{ field: "id", op: "eq", value: record.id }], changes), "validation_failed");
          expect(error.issues?.map((issue) => issue.path)).toEqual([path]);
        }
        for (const field of ["id", "createdAt", "updatedAt", "_id"]) {
          const error = await expectAppError(store.updateFirst(collection, [], { [field]: "x" }), "validation_failed");
          expect(error.issues?.map((issue) => issue.path)).toEqual([field]);
        }
        expect(await store.findByIds(collection, [record.id])).toEqual([record]);
      });
    });

    describe("collection and field names", () => {
      it("accepts user and system collection names and refuses everything else", async () => {
        await store.insert(fresh("_executions"), { ok: true });
        // 64 characters: longer than a PostgreSQL identifier.
        const longest = `_c${"x".repeat(62)}`;
        await store.insert(longest, { ok: true });
        expect(await store.count(longest)).toBe(1);
        await store.dropCollection(longest);
        for (const bad of ["Tickets", "a-b", "__x", "1abc", "", "a.b", "a b", "a$", `c${"x".repeat(64)}`, "tickets;drop"]) {
          const error = await expectAppError(store.insert(bad, { ok: true }), "validation_failed");
          expect(error.issues?.[0]?.path).toBe("collection");
          await expectAppError(store.find(bad), "validation_failed");
          await expectAppError(store.count(bad), "validation_failed");
          await expectAppError(store.deleteMany(bad, []), "validation_failed");
        }
      });

      it("refuses bad field names in filters, sorts, searches and indexes", async () => {
        const collection = fresh("fields");
        for (const field of ["$where", "a.b", "a b", "_id", "1a", "a-b", "", "x".repeat(65), "name'--"]) {
          await expectAppError(store.find(collection, { where: [{ field, op: "eq", value: 1 }] }), "validation_failed");
          await expectAppError(store.find(collection, { sort: [{ field, direction: "asc" }] }), "validation_failed");
          await expectAppError(store.find(collection, { search: { text: "x", fields: [field] } }), "validation_failed");
          await expectAppError(store.ensureUniqueIndex(collection, field), "validation_failed");
        }
      });

      it("refuses malformed queries with the path of the problem", async () => {
        const collection = fresh("queries");
        const bad: [Parameters<RecordStore["find"]>[1], string][] = [
          [{ where: [{ field: "a", op: "regex" as never, value: "x" }] }, "where.0.op"],
          [{ where: [{ field: "a", op: "in", value: "x" }] }, "where.0.value"],
          [{ where: [{ field: "a", op: "in", value: [{ $ne: null }] }] }, "where.0.value.0"],
          [{ where: [{ field: "a", op: "in", value: [[1]] }] }, "where.0.value.0"],
          [{ where: [{ field: "a", op: "contains", value: 5 }] }, "where.0.value"],
          [{ where: [{ field: "a", op: "gt", value: true }] }, "where.0.value"],
          [{ where: [{ field: "a", op: "lt", value: { $gt: 1 } }] }, "where.0.value"],
          [{ where: [{ field: "a", op: "gte", value: null }] }, "where.0.value"],
          [{ where: [{ field: "a", op: "eq", value: Number.NaN }] }, "where.0.value"],
          [{ where: [{ field: "a", op: "eq", value: "nul\u0000" }] }, "where.0.value"],
          [{ where: [{ field: "a", op: "eq", value: "lone\ud800" }] }, "where.0.value"],
          [{ where: [{ field: "a", op: "contains", value: "lone\udc00" }] }, "where.0.value"],
          [{ where: "a=1" as never }, "where"],
          [{ skip: -1 }, "skip"],
          [{ limit: 1.5 }, "limit"],
          [{ sort: [{ field: "a", direction: "up" as never }] }, "sort.0.direction"],
          [{ search: { text: "x", fields: [] } }, "search.fields"],
        ];
        for (const [query, path] of bad) {
          const error = await expectAppError(store.find(collection, query), "validation_failed");
          expect(error.issues?.[0]?.path).toBe(path);
        }
      });
    });

    // Every query test runs twice: once as written, once with an index on every field it seeds,
    // which must not change a single answer (indexes change how conditions are written).
    for (const indexed of [false, true])
      describe(indexed ? "find, with every field indexed" : "find", () => {
        async function seed(collection: string, documents: Record<string, unknown>[]): Promise<StoredRecord[]> {
          const records = await seedOneByOne(collection, documents);
          if (indexed) for (const field of new Set(documents.flatMap((document) => Object.keys(document)))) await store.ensureFieldIndex(collection, field);
          return records;
        }

        it("answers nothing for a collection that was never written", async () => {
          const collection = fresh("never");
          expect(await store.find(collection)).toEqual([]);
          expect(await store.count(collection)).toBe(0);
          expect(await store.findByIds(collection, ["rec_x"])).toEqual([]);
          expect(await store.updateFirst(collection, [], { a: 1 })).toEqual({ matched: false, record: null, previous: null });
          expect(await store.deleteMany(collection, [])).toBe(0);
        });

        it("orders by createdAt, then id, when no sort is given", async () => {
          const collection = fresh("order");
          const inserted = await seed(collection, [{ id: "id_c" }, { id: "id_a" }, { id: "id_b" }, { id: "id_e" }, { id: "id_d" }]);
          const found = await store.find(collection);
          expect(ids(found)).toEqual(ids([...inserted].sort(byCreatedThenId)));
          const paged = [...(await store.find(collection, { limit: 2 })), ...(await store.find(collection, { skip: 2 }))];
          expect(ids(paged)).toEqual(ids(found));
        });

        it("eq compares text, numbers and booleans by type and value", async () => {
          const collection = fresh("eq");
          await seed(collection, [
            { name: "a", value: "5" },
            { name: "b", value: 5 },
            { name: "c", value: 5.0 },
            { name: "d", value: true },
            { name: "e", value: "true" },
            { name: "f", value: "Five" },
          ]);
          expect(await names(collection, [{ field: "value", op: "eq", value: 5 }])).toEqual(["b", "c"]);
          expect(await names(collection, [{ field: "value", op: "eq", value: "5" }])).toEqual(["a"]);
          expect(await names(collection, [{ field: "value", op: "eq", value: true }])).toEqual(["d"]);
          expect(await names(collection, [{ field: "value", op: "eq", value: "five" }])).toEqual([]);
          expect(await names(collection, [{ field: "value", op: "ne", value: 5 }])).toEqual(["a", "d", "e", "f"]);
        });

        it("eq null matches a missing field or null; ne null matches the others", async () => {
          const collection = fresh("nulls");
          await seed(collection, [{ name: "missing" }, { name: "null", v: null }, { name: "zero", v: 0 }, { name: "empty", v: "" }, { name: "false", v: false }]);
          expect(await names(collection, [{ field: "v", op: "eq", value: null }])).toEqual(["missing", "null"]);
          expect(await names(collection, [{ field: "v", op: "ne", value: null }])).toEqual(["empty", "false", "zero"]);
          expect(await names(collection, [{ field: "v", op: "ne", value: 0 }])).toEqual(["empty", "false", "missing", "null"]);
          expect(await names(collection, [{ field: "v", op: "in", value: [null, 0] }])).toEqual(["missing", "null", "zero"]);
        });

        it("eq on an object or array literal compares the whole value; a scalar never equals an array", async () => {
          const collection = fresh("literals");
          await seed(collection, [
            { name: "a", tags: ["x", "y"], meta: { k: 1, list: [1, 2] } },
            { name: "b", tags: [["x", "y"], "z"], meta: { k: 1 } },
            { name: "c", tags: "x", meta: { k: 1, list: [1, 2], more: true } },
            { name: "d", tags: ["y", "x"] },
          ]);
          expect(await names(collection, [{ field: "tags", op: "eq", value: ["x", "y"] }])).toEqual(["a"]);
          expect(await names(collection, [{ field: "tags", op: "eq", value: "x" }])).toEqual(["c"]);
          expect(await names(collection, [{ field: "tags", op: "in", value: ["x", "z"] }])).toEqual(["c"]);
          expect(await names(collection, [{ field: "meta", op: "eq", value: { k: 1, list: [1, 2] } }])).toEqual(["a"]);
          expect(await names(collection, [{ field: "meta", op: "eq", value: { k: 1 } }])).toEqual(["b"]);
          expect(await names(collection, [{ field: "tags", op: "ne", value: ["x", "y"] }])).toEqual(["b", "c", "d"]);
          expect(await names(collection, [{ field: "tags", op: "contains", value: "x" }])).toEqual(["c"]);
          expect(await names(collection, [{ field: "tags", op: "gte", value: "" }])).toEqual(["c"]);
        });

        it("gt/gte/lt/lte compare numbers numerically and never match other types", async () => {
          const collection = fresh("numbers");
          await seed(collection, [
            { name: "n2", n: 2 },
            { name: "n10", n: 10 },
            { name: "n-3", n: -3.5 },
            { name: "s10", n: "10" },
            { name: "s9", n: "9" },
            { name: "t", n: true },
            { name: "x" },
          ]);
          const n = (op: FieldCondition["op"], value: number) => names(collection, [{ field: "n", op, value }]);
          expect(await n("gt", 2)).toEqual(["n10"]);
          expect(await n("gte", 2)).toEqual(["n10", "n2"]);
          expect(await n("lt", 10)).toEqual(["n-3", "n2"]);
          expect(await n("lte", 10)).toEqual(["n-3", "n10", "n2"]);
          expect(await n("gt", -100)).toEqual(["n-3", "n10", "n2"]);
        });

        it("gt/gte/lt/lte compare text byte-wise, so ISO 8601 timestamps compare as time", async () => {
          const collection = fresh("dates");
          await seed(collection, [
            { name: "jan", at: "2024-01-15T10:00:00.000Z" },
            { name: "feb", at: "2024-02-01T00:00:00.000Z" },
            { name: "feb-late", at: "2024-02-01T23:59:59.999Z" },
            { name: "dec", at: "2023-12-31T23:59:59.999Z" },
            { name: "num", at: 20240101 },
          ]);
          const at = (op: FieldCondition["op"], value: string) => names(collection, [{ field: "at", op, value }]);
          expect(await at("gte", "2024-01-01T00:00:00.000Z")).toEqual(["feb", "feb-late", "jan"]);
          expect(await at("lt", "2024-02-01T00:00:00.000Z")).toEqual(["dec", "jan"]);
          expect(await at("gt", "2024-02-01T00:00:00.000Z")).toEqual(["feb-late"]);
          expect(await at("lte", "2024-02-01T00:00:00.000Z")).toEqual(["dec", "feb", "jan"]);
          const words = fresh("words");
          await seed(words, [
            { name: "upper", w: "B" },
            { name: "lower", w: "b" },
            { name: "accent", w: "é" },
          ]);
          expect(await names(words, [{ field: "w", op: "lt", value: "a" }])).toEqual(["upper"]);
          expect(await names(words, [{ field: "w", op: "gt", value: "z" }])).toEqual(["accent"]);
        });

        it("long texts compare whole, past any prefix an index keeps", async () => {
          const collection = fresh("longtext");
          const base = "é".repeat(399);
          await seed(collection, [
            { name: "399", t: base },
            { name: "400", t: `${base}a` },
            { name: "401", t: `${base}ab` },
            { name: "401b", t: `${base}ac` },
            { name: "800", t: `${base}a${"z".repeat(400)}` },
          ]);
          const t = (op: FieldCondition["op"], value: unknown) => names(collection, [{ field: "t", op, value }]);
          expect(await t("eq", base)).toEqual(["399"]);
          expect(await t("eq", `${base}a`)).toEqual(["400"]);
          expect(await t("eq", `${base}ab`)).toEqual(["401"]);
          expect(await t("in", [`${base}ac`, base])).toEqual(["399", "401b"]);
          expect(await t("gt", `${base}a`)).toEqual(["401", "401b", "800"]);
          expect(await t("gte", `${base}ab`)).toEqual(["401", "401b", "800"]);
          expect(await t("lt", `${base}ab`)).toEqual(["399", "400"]);
          expect(await t("lte", `${base}ab`)).toEqual(["399", "400", "401"]);
          expect(await t("gt", `${base}a${"z".repeat(399)}`)).toEqual(["800"]);
          expect(await t("lt", `${base}b`)).toEqual(["399", "400", "401", "401b", "800"]);
          const sorted = await store.find(collection, { sort: [{ field: "t", direction: "desc" }] });
          expect(sorted.map((record) => record.name)).toEqual(["800", "401b", "401", "400", "399"]);
        });

        it("in matches any of the listed values; an empty list matches nothing", async () => {
          const collection = fresh("in");
          await seed(collection, [{ name: "a", s: "open" }, { name: "b", s: "closed" }, { name: "c", s: "pending" }, { name: "d", s: 1 }, { name: "e" }]);
          expect(await names(collection, [{ field: "s", op: "in", value: ["open", "pending", 1] }])).toEqual(["a", "c", "d"]);
          expect(await names(collection, [{ field: "s", op: "in", value: ["1"] }])).toEqual([]);
          expect(await names(collection, [{ field: "s", op: "in", value: [] }])).toEqual([]);
        });

        it("contains is a case-insensitive substring on text, with wildcards taken literally", async () => {
          const collection = fresh("contains");
          await seed(collection, [
            { name: "a", t: "Hello World" },
            { name: "b", t: "100% sure" },
            { name: "c", t: "snake_case" },
            { name: "d", t: "back\\slash" },
            { name: "e", t: "regex .* here (x)" },
            { name: "f", t: "1000 sure" },
            { name: "g", t: "snakeXcase" },
            { name: "h", t: 100 },
          ]);
          const c = (value: string) => names(collection, [{ field: "t", op: "contains", value }]);
          expect(await c("WORLD")).toEqual(["a"]);
          expect(await c("o w")).toEqual(["a"]);
          expect(await c("0%")).toEqual(["b"]);
          expect(await c("e_c")).toEqual(["c"]);
          expect(await c("\\")).toEqual(["d"]);
          expect(await c(".*")).toEqual(["e"]);
          expect(await c("(x)")).toEqual(["e"]);
          expect(await c("[a-z]")).toEqual([]);
          expect(await c("^h")).toEqual([]);
          expect(await c("100")).toEqual(["b", "f"]);
        });

        it("search matches text in any of its fields and combines with where", async () => {
          const collection = fresh("search");
          await seed(collection, [
            { name: "a", title: "Broken printer", body: "paper jam", status: "open" },
            { name: "b", title: "Email down", body: "The PRINTER is fine", status: "closed" },
            { name: "c", title: "Coffee", body: "machine", status: "open" },
            { name: "d", title: 42, body: null, status: "open" },
            { name: "e", title: "Printer", body: "" },
            { name: "f", title: "no", body: "print\ner" },
          ]);
          if (indexed) await store.ensureSearchIndex(collection, ["title", "body"]);
          const search = { text: "printer", fields: ["title", "body"] };
          expect((await store.find(collection, { search, sort: [{ field: "name", direction: "asc" }] })).map((r) => r.name)).toEqual(["a", "b", "e"]);
          expect((await store.find(collection, { search, where: [{ field: "status", op: "eq", value: "open" }] })).map((r) => r.name)).toEqual(["a"]);
          expect(await store.count(collection, { search })).toBe(3);
          // Text that spans two fields is in neither.
          expect(await store.count(collection, { search: { text: "printer\npaper", fields: ["title", "body"] } })).toBe(0);
          expect(await store.count(collection, { search: { text: "print\ner", fields: ["title", "body"] } })).toBe(1);
          expect(await store.count(collection, { search: { text: "%", fields: ["title"] } })).toBe(0);
          expect(await store.count(collection, { search: { text: "", fields: ["title"] } })).toBe(6);
        });

        it("filters on the system fields id, createdAt and updatedAt", async () => {
          const collection = fresh("system");
          const [a, b, c] = await seed(collection, [
            { id: "sys_a", name: "a" },
            { id: "sys_b", name: "b" },
            { id: "sys_c", name: "c" },
          ]);
          expect(await names(collection, [{ field: "id", op: "eq", value: "sys_b" }])).toEqual(["b"]);
          expect(await names(collection, [{ field: "id", op: "ne", value: "sys_b" }])).toEqual(["a", "c"]);
          expect(await names(collection, [{ field: "id", op: "in", value: ["sys_a", "sys_c", "nope", 5] }])).toEqual(["a", "c"]);
          expect(await names(collection, [{ field: "id", op: "gt", value: "sys_a" }])).toEqual(["b", "c"]);
          expect(await names(collection, [{ field: "id", op: "contains", value: "YS_C" }])).toEqual(["c"]);
          expect(await names(collection, [{ field: "id", op: "eq", value: 5 }])).toEqual([]);
          expect(await names(collection, [{ field: "id", op: "eq", value: null }])).toEqual([]);
          expect(await names(collection, [{ field: "createdAt", op: "gte", value: a?.createdAt ?? "" }])).toEqual(["a", "b", "c"]);
          expect(await names(collection, [{ field: "createdAt", op: "gt", value: c?.createdAt ?? "" }])).toEqual([]);
          expect(
            await names(collection, [
              { field: "updatedAt", op: "lte", value: b?.updatedAt ?? "" },
              { field: "name", op: "ne", value: "c" },
            ]),
          ).toEqual(["a", "b"]);
        });

        it("sorts numbers numerically, text byte-wise, missing and null first, numbers before text", async () => {
          const collection = fresh("sort");
          // Explicit ids in insertion order: missing and null sort as equal, then by createdAt and id.
          await seed(collection, [
            { id: "s_1", name: "ten", v: 10 },
            { id: "s_2", name: "text-10", v: "10" },
            { id: "s_3", name: "missing" },
            { id: "s_4", name: "three", v: 3 },
            { id: "s_5", name: "null", v: null },
            { id: "s_6", name: "text-a", v: "a" },
            { id: "s_7", name: "text-B", v: "B" },
            { id: "s_8", name: "yes", v: true },
          ]);
          const asc = await store.find(collection, { sort: [{ field: "v", direction: "asc" }] });
          expect(asc.map((r) => r.name)).toEqual(["missing", "null", "three", "ten", "text-10", "text-B", "text-a", "yes"]);
          const desc = await store.find(collection, { sort: [{ field: "v", direction: "desc" }] });
          expect(desc.map((r) => r.name)).toEqual(["yes", "text-a", "text-B", "text-10", "ten", "three", "missing", "null"]);
        });

        it("breaks ties in a sort by createdAt, then id, ascending whichever way the field is sorted", async () => {
          const collection = fresh("ties");
          const long = "x".repeat(400);
          // Ids ascend in insertion order, so records of equal value keep their insertion order.
          const values: [string, unknown][] = [
            ["t_01", true],
            ["t_02", 1],
            ["t_03", `${long}b`],
            ["t_04", "a"],
            ["t_05", false],
            ["t_06", undefined],
            ["t_07", true],
            ["t_08", 1.0],
            ["t_09", `${long}a`],
            ["t_10", "a"],
            ["t_11", false],
            ["t_12", null],
            ["t_13", `${long}b`],
            ["t_14", long],
            ["t_15", 2],
          ];
          await seed(
            collection,
            values.map(([id, v]) => (v === undefined ? { id } : { id, v })),
          );
          const asc = await store.find(collection, { sort: [{ field: "v", direction: "asc" }] });
          expect(ids(asc)).toEqual(["t_06", "t_12", "t_02", "t_08", "t_15", "t_04", "t_10", "t_14", "t_09", "t_03", "t_13", "t_05", "t_11", "t_01", "t_07"]);
          const desc = await store.find(collection, { sort: [{ field: "v", direction: "desc" }] });
          expect(ids(desc)).toEqual(["t_01", "t_07", "t_05", "t_11", "t_03", "t_13", "t_09", "t_14", "t_04", "t_10", "t_15", "t_02", "t_08", "t_06", "t_12"]);
          const page = await store.find(collection, { sort: [{ field: "v", direction: "desc" }], skip: 1, limit: 3 });
          expect(ids(page)).toEqual(["t_07", "t_05", "t_11"]);
        });

        it("sorts by several fields and by system fields", async () => {
          const collection = fresh("multisort");
          await seed(collection, [
            { id: "m_1", group: "b", rank: 2 },
            { id: "m_2", group: "a", rank: 2 },
            { id: "m_3", group: "b", rank: 1 },
            { id: "m_4", group: "a", rank: 1 },
          ]);
          const sorted = await store.find(collection, {
            sort: [
              { field: "group", direction: "desc" },
              { field: "rank", direction: "asc" },
            ],
          });
          expect(ids(sorted)).toEqual(["m_3", "m_1", "m_4", "m_2"]);
          expect(ids(await store.find(collection, { sort: [{ field: "id", direction: "desc" }] }))).toEqual(["m_4", "m_3", "m_2", "m_1"]);
          const byCreated = await store.find(collection, { sort: [{ field: "createdAt", direction: "desc" }] });
          expect(ids(byCreated)).toEqual(ids([...byCreated].sort((x, y) => (x.createdAt === y.createdAt ? (x.id < y.id ? -1 : 1) : x.createdAt < y.createdAt ? 1 : -1))));
        });

        it("pages with skip and limit", async () => {
          const collection = fresh("pages");
          await seed(
            collection,
            Array.from({ length: 10 }, (_, n) => ({ n })),
          );
          const page = (skip?: number, limit?: number) => store.find(collection, { sort: [{ field: "n", direction: "asc" }], skip, limit }).then((rs) => rs.map((r) => r.n));
          expect(await page(3, 4)).toEqual([3, 4, 5, 6]);
          expect(await page(8)).toEqual([8, 9]);
          expect(await page(undefined, 2)).toEqual([0, 1]);
          expect(await page(20, 5)).toEqual([]);
          expect(await page(0, 0)).toEqual([]);
          expect(await page(0, 100)).toHaveLength(10);
        });

        it("counts all records or the matching ones", async () => {
          const collection = fresh("count");
          await seed(collection, [{ s: "open" }, { s: "open" }, { s: "closed" }]);
          expect(await store.count(collection)).toBe(3);
          expect(await store.count(collection, { where: [{ field: "s", op: "eq", value: "open" }] })).toBe(2);
          expect(
            await store.count(collection, {
              where: [
                { field: "s", op: "eq", value: "open" },
                { field: "s", op: "ne", value: "open" },
              ],
            }),
          ).toBe(0);
        });

        it("refreshes statistics of a collection, written or not", async () => {
          const collection = fresh("stats");
          await store.refreshStatistics(collection);
          await seed(collection, [{ s: "a" }, { s: "b" }]);
          await store.refreshStatistics(collection);
          expect(await store.count(collection)).toBe(2);
        });

        it("reclaims deleted space in a collection, written or not, and keeps its live records", async () => {
          const collection = fresh("reclaim");
          await store.reclaimDeletedSpace(collection);
          await seed(collection, [{ s: "kept" }, { s: "gone" }, { s: "gone" }]);
          expect(await store.deleteMany(collection, [{ field: "s", op: "eq", value: "gone" }])).toBe(2);
          await store.reclaimDeletedSpace(collection);
          expect((await store.find(collection)).map((record) => record.s)).toEqual(["kept"]);
        });

        it("counts at most `limit` matches", async () => {
          const collection = fresh("countlimit");
          await seed(collection, [{ s: "open" }, { s: "open" }, { s: "open" }, { s: "closed" }]);
          expect(await store.count(collection, { limit: 2 })).toBe(2);
          expect(await store.count(collection, { limit: 10 })).toBe(4);
          expect(await store.count(collection, { where: [{ field: "s", op: "eq", value: "open" }], limit: 3 })).toBe(3);
          expect(await store.count(collection, { where: [{ field: "s", op: "eq", value: "closed" }], limit: 3 })).toBe(1);
          expect(await store.count(collection, { limit: 0 })).toBe(0);
          await expectAppError(store.count(collection, { limit: -1 }), "validation_failed");
        });
      });

    describe("findByIds", () => {
      it("answers the found records in the order asked, each once, in one round trip", async () => {
        const collection = fresh("byids");
        const records = await seed(
          collection,
          Array.from({ length: 50 }, (_, n) => ({ n })),
        );
        const wanted = [...records].reverse().map((record) => record.id);
        const before = store.metrics.queries;
        const found = await store.findByIds(collection, [...wanted, "rec_missing", wanted[0] as string]);
        expect(store.metrics.queries - before).toBe(1);
        expect(ids(found)).toEqual(wanted);
        expect(found[0]).toEqual(records[49]);
      });

      it("answers nothing for no ids without asking the database", async () => {
        const collection = fresh("byids");
        const before = store.metrics.queries;
        expect(await store.findByIds(collection, [])).toEqual([]);
        expect(store.metrics.queries).toBe(before);
        await expectAppError(store.findByIds(collection, [5 as unknown as string]), "validation_failed");
        // Ids no record can have (jsonb cannot carry them): not found, never a database error.
        expect(await store.findByIds(collection, ["rec_\u0000", "rec_\ud800"])).toEqual([]);
      });
    });

    describe("updateFirst", () => {
      it("merges the changes into the first match and answers the record before and after", async () => {
        const collection = fresh("update");
        const [first, second] = await seed(collection, [
          { id: "u_1", name: "first", status: "open", meta: { a: 1, b: 2 }, keep: "x" },
          { id: "u_2", name: "second", status: "open", meta: { a: 1 } },
        ]);
        const result = await store.updateFirst(collection, [{ field: "status", op: "eq", value: "open" }], { status: "closed", meta: { c: 3 }, added: null });
        expect(result.matched).toBe(true);
        expect(result.previous).toEqual(first);
        expect(result.record).toEqual({ ...first, status: "closed", meta: { c: 3 }, added: null, updatedAt: result.record?.updatedAt });
        expect(result.record?.createdAt).toBe(first?.createdAt);
        expect((result.record?.updatedAt ?? "") >= (first?.updatedAt ?? "")).toBe(true);
        expect(await store.findByIds(collection, [first?.id ?? "", second?.id ?? ""])).toEqual([result.record, second]);
      });

      it("answers matched false and nulls when nothing matches", async () => {
        const collection = fresh("update");
        await seed(collection, [{ status: "open" }]);
        expect(await store.updateFirst(collection, [{ field: "status", op: "eq", value: "gone" }], { status: "x" })).toEqual({ matched: false, record: null, previous: null });
        expect(await store.count(collection, { where: [{ field: "status", op: "eq", value: "open" }] })).toBe(1);
      });

      it("with empty changes only touches updatedAt", async () => {
        const collection = fresh("update");
        const [record] = await seed(collection, [{ name: "a" }]);
        const result = await store.updateFirst(collection, [], {});
        expect(result.record).toEqual({ ...record, updatedAt: result.record?.updatedAt });
      });
    });

    describe("deleteMany", () => {
      it("deletes every match and answers how many", async () => {
        const collection = fresh("delete");
        await seed(collection, [
          { id: "d_1", s: "a" },
          { id: "d_2", s: "b" },
          { id: "d_3", s: "a" },
          { id: "d_4", s: "c" },
        ]);
        expect(await store.deleteMany(collection, [{ field: "s", op: "eq", value: "a" }])).toBe(2);
        expect(await store.deleteMany(collection, [{ field: "s", op: "eq", value: "a" }])).toBe(0);
        expect((await store.find(collection)).map((r) => r.s)).toEqual(["b", "c"]);
        expect(await store.deleteMany(collection, [])).toBe(2);
        expect(await store.count(collection)).toBe(0);
      });
    });

    describe("ensureUniqueIndex", () => {
      it("makes a second record with the same value fail with unique_violation naming the field", async () => {
        const collection = fresh("unique");
        await store.ensureUniqueIndex(collection, "email");
        await store.insert(collection, { email: "ada@example.com" });
        const error = await expectAppError(store.insert(collection, { email: "ada@example.com", other: 1 }), "unique_violation");
        expect(error.field).toBe("email");
        expect(error.message).toContain("email");
        expect(error.message).not.toMatch(DRIVER_TEXT);
        await store.insert(collection, { email: "ADA@example.com" });
        expect(await store.count(collection)).toBe(2);
      });

      // Arrays are left out here: MongoDB constrains their elements one by one (see README).
      it("constrains text, numbers and booleans by type; not missing, null or objects", async () => {
        const collection = fresh("unique");
        await store.ensureUniqueIndex(collection, "code");
        await seed(collection, [{}, {}, { code: null }, { code: null }, { code: { a: 1 } }, { code: { a: 1 } }, { code: 1 }, { code: "1" }, { code: true }]);
        await expectAppError(store.insert(collection, { code: 1.0 }), "unique_violation");
        await expectAppError(store.insert(collection, { code: "1" }), "unique_violation");
        await expectAppError(store.insert(collection, { code: true }), "unique_violation");
        expect(await store.count(collection)).toBe(9);
      });

      it("is enforced on updateFirst too", async () => {
        const collection = fresh("unique");
        await store.ensureUniqueIndex(collection, "email");
        const [, b] = await seed(collection, [{ email: "a@x" }, { email: "b@x" }]);
        const error = await expectAppError(store.updateFirst(collection, [{ field: "id", op: "eq", value: b?.id ?? "" }], { email: "a@x" }), "unique_violation");
        expect(error.field).toBe("email");
        expect(await store.findByIds(collection, [b?.id ?? ""])).toEqual([b]);
      });

      it("fails with unique_violation naming the field and a duplicate value when duplicates exist", async () => {
        const collection = fresh("unique");
        await seed(collection, [{ email: "dup@example.com" }, { email: "dup@example.com" }, { email: "solo@example.com" }]);
        const error = await expectAppError(store.ensureUniqueIndex(collection, "email"), "unique_violation");
        expect(error.field).toBe("email");
        expect(error.message).toContain("email");
        expect(error.message).toContain("dup@example.com");
        expect(error.message).not.toMatch(DRIVER_TEXT);
        await store.insert(collection, { email: "dup@example.com" });
        expect(await store.count(collection)).toBe(4);
      });

      it("is idempotent, is a no-op on id and works before the first insert", async () => {
        const collection = fresh("unique");
        await store.ensureUniqueIndex(collection, "slug");
        await store.ensureUniqueIndex(collection, "slug");
        await store.ensureUniqueIndex(collection, "id");
        await store.insert(collection, { slug: "a" });
        await store.ensureUniqueIndex(collection, "slug");
        await expectAppError(store.insert(collection, { slug: "a" }), "unique_violation");
      });

      it("can be dropped again (dropping twice is fine)", async () => {
        const collection = fresh("unique");
        await store.ensureUniqueIndex(collection, "slug");
        await store.insert(collection, { slug: "a" });
        await store.dropUniqueIndex(collection, "slug");
        await store.dropUniqueIndex(collection, "slug");
        await store.dropUniqueIndex(fresh("never"), "slug");
        await store.insert(collection, { slug: "a" });
        expect(await store.count(collection)).toBe(2);
      });

      it("lets exactly one of 20 parallel inserts of one value win", async () => {
        const collection = fresh("race");
        await store.ensureUniqueIndex(collection, "email");
        const results = await Promise.allSettled(Array.from({ length: 20 }, (_, n) => store.insert(collection, { email: "race@example.com", n })));
        const won = results.filter((result) => result.status === "fulfilled");
        const lost = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(19);
        for (const { reason } of lost) {
          expect(reason).toBeInstanceOf(AppError);
          expect((reason as AppError).code).toBe("unique_violation");
          expect((reason as AppError).field).toBe("email");
        }
        expect(await store.count(collection)).toBe(1);
      });

      it("creates a collection safely when many writers reach it at once", async () => {
        const collection = fresh("lazy");
        const inserts = await Promise.allSettled(Array.from({ length: 20 }, (_, n) => store.insert(collection, { n })));
        expect(inserts.filter((result) => result.status === "rejected")).toEqual([]);
        expect(await store.count(collection)).toBe(20);
        const other = fresh("lazy");
        const indexes = await Promise.allSettled(Array.from({ length: 10 }, () => store.ensureUniqueIndex(other, "email")));
        expect(indexes.filter((result) => result.status === "rejected")).toEqual([]);
        await store.insert(other, { email: "x" });
        await expectAppError(store.insert(other, { email: "x" }), "unique_violation");
      });
    });

    describe("operator injection", () => {
      it("treats an object filter value such as {$ne: null} as a literal, never an operator", async () => {
        const collection = fresh("inject");
        await seed(collection, [{ name: "a", role: "user" }, { name: "b", role: "admin" }, { name: "c" }, { name: "d", role: "$ne" }]);
        expect(await names(collection, [{ field: "role", op: "eq", value: { $ne: null } }])).toEqual([]);
        expect(await names(collection, [{ field: "role", op: "eq", value: { $gt: "" } }])).toEqual([]);
        expect(await names(collection, [{ field: "role", op: "eq", value: { $regex: ".*" } }])).toEqual([]);
        expect(await names(collection, [{ field: "role", op: "eq", value: { $in: ["user", "admin"] } }])).toEqual([]);
        expect(await names(collection, [{ field: "role", op: "eq", value: { "a.b": 1 } }])).toEqual([]);
        expect(await names(collection, [{ field: "role", op: "eq", value: [{ $ne: null }] }])).toEqual([]);
        // Literals with keys no record can hold match nothing, without reaching the database's parser.
        expect(await names(collection, [{ field: "role", op: "eq", value: { "k\u0000": 1 } }])).toEqual([]);
        expect(await names(collection, [{ field: "role", op: "eq", value: { "k\ud800": 1 } }])).toEqual([]);
        expect(await names(collection, [{ field: "role", op: "ne", value: { "k\udc00": 1 } }])).toEqual(["a", "b", "c", "d"]);
        expect(await names(collection, [{ field: "role", op: "ne", value: { $ne: null } }])).toEqual(["a", "b", "c", "d"]);
        expect(await names(collection, [{ field: "role", op: "eq", value: "$ne" }])).toEqual(["d"]);
        expect(await names(collection, [{ field: "role", op: "eq", value: "$role" }])).toEqual([]);
        expect(await store.count(collection, { where: [{ field: "id", op: "eq", value: { $ne: null } }] })).toBe(0);
        expect(await store.deleteMany(collection, [{ field: "role", op: "eq", value: { $ne: null } }])).toBe(0);
        expect((await store.updateFirst(collection, [{ field: "role", op: "eq", value: { $exists: true } }], { role: "owner" })).matched).toBe(false);
        expect(await store.count(collection)).toBe(4);
      });

      it("treats search text and contains values as text, not patterns", async () => {
        const collection = fresh("inject");
        await seed(collection, [
          { name: "a", t: "abc" },
          { name: "b", t: "a.c" },
          { name: "c", t: "x'; DROP TABLE y; --" },
        ]);
        expect(await names(collection, [{ field: "t", op: "contains", value: "a.c" }])).toEqual(["b"]);
        expect(await names(collection, [{ field: "t", op: "contains", value: "'; DROP" }])).toEqual(["c"]);
        expect(await store.count(collection, { search: { text: ".*", fields: ["t"] } })).toBe(0);
        expect(await store.count(collection)).toBe(3);
      });
    });

    describe("timeouts", () => {
      let slow: string;
      const absent = { text: "this text is in no record", fields: ["blob", "other"] };

      beforeAll(async () => {
        // About 20 MB of incompressible text that a search has to read in full.
        slow = fresh("slow");
        for (let n = 0; n < 20; n += 1) await store.insert(slow, { blob: randomBytes(750_000).toString("base64"), n });
      });

      it("answers timeout for an already aborted signal without touching the database", async () => {
        const collection = fresh("aborted");
        const signal = AbortSignal.abort();
        const before = store.metrics.queries;
        await expectAppError(store.insert(collection, { a: 1 }, { signal }), "timeout");
        await expectAppError(store.find(collection, { signal }), "timeout");
        await expectAppError(store.count(collection, { signal }), "timeout");
        await expectAppError(store.findByIds(collection, ["rec_x"], { signal }), "timeout");
        await expectAppError(store.updateFirst(collection, [], { a: 2 }, { signal }), "timeout");
        await expectAppError(store.deleteMany(collection, [], { signal }), "timeout");
        await expectAppError(store.ensureUniqueIndex(collection, "a", { signal }), "timeout");
        await expectAppError(store.dropCollection(collection, { signal }), "timeout");
        await expectAppError(store.ping({ signal }), "timeout");
        expect(store.metrics.queries).toBe(before);
        expect(await store.count(collection)).toBe(0);
      });

      it("answers timeout when a slow operation outlives a tiny timeoutMs, and stays usable", async () => {
        const error = await expectAppError(store.count(slow, { search: absent, timeoutMs: 1 }), "timeout");
        expect(error.message).not.toMatch(DRIVER_TEXT);
        await expectAppError(store.find(slow, { search: absent, timeoutMs: 1 }), "timeout");
        await store.ping();
        expect(await store.count(slow, { search: absent, timeoutMs: 60_000 })).toBe(0);
      });

      it("answers timeout when the signal aborts during a slow operation", async () => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 2);
        await expectAppError(store.count(slow, { search: absent, signal: controller.signal }), "timeout");
        expect(await store.count(slow)).toBe(20);
      });
    });

    describe("round trips", () => {
      it("counts one round trip per operation on an existing collection", async () => {
        const collection = fresh("trips");
        const record = await store.insert(collection, { n: 1 });
        const trips = async (run: () => Promise<unknown>) => {
          const before = store.metrics.queries;
          await run();
          return store.metrics.queries - before;
        };
        expect(await trips(() => store.insert(collection, { n: 2 }))).toBe(1);
        expect(await trips(() => store.find(collection, { where: [{ field: "n", op: "gt", value: 0 }], limit: 10 }))).toBe(1);
        expect(await trips(() => store.count(collection))).toBe(1);
        expect(await trips(() => store.findByIds(collection, [record.id]))).toBe(1);
        expect(await trips(() => store.updateFirst(collection, [{ field: "n", op: "eq", value: 1 }], { n: 3 }))).toBe(1);
        expect(await trips(() => store.deleteMany(collection, [{ field: "n", op: "eq", value: 3 }]))).toBe(1);
        expect(await trips(() => store.ping())).toBe(1);
      });
    });

    // One database, one project (database-owner.ts). The suite's database is claimed only here,
    // in order: unclaimed, a race, re-claim, refusal, takeOver.
    describe("ownership marker", () => {
      const projectA = `prj_a${randomBytes(4).toString("hex")}`;
      const projectB = `prj_b${randomBytes(4).toString("hex")}`;
      let winner = "";

      it("reads no owner before any claim, creating nothing", async () => {
        expect(await store.readOwner()).toBeNull();
        expect(await store.readOwner()).toBeNull();
      });

      it("lets exactly one of several projects racing for an unclaimed database win", async () => {
        const claimants = [projectA, projectB, `prj_c${randomBytes(4).toString("hex")}`, `prj_d${randomBytes(4).toString("hex")}`];
        const outcomes = await Promise.allSettled(claimants.map((projectId) => store.claimOwnership({ projectId, workspaceId: "wks_contract" })));
        const won = outcomes.flatMap((outcome, index) => (outcome.status === "fulfilled" ? [claimants[index]!] : []));
        expect(won).toHaveLength(1);
        winner = won[0]!;
        for (const outcome of outcomes) {
          if (outcome.status === "rejected") {
            expect(outcome.reason).toBeInstanceOf(AppError);
            expect((outcome.reason as AppError).code).toBe("conflict");
          }
        }
        const owner = await store.readOwner();
        expect(owner).toEqual({ projectId: winner, workspaceId: "wks_contract", attachedAt: expect.any(String) });
        expect(new Date(owner!.attachedAt).toISOString()).toBe(owner!.attachedAt);
      });

      it("re-claims for the same project without changing the marker", async () => {
        const before = await store.readOwner();
        expect(await store.claimOwnership({ projectId: winner, workspaceId: "wks_contract" })).toEqual(before);
        expect(await store.claimOwnership({ projectId: winner, workspaceId: "wks_contract" }, { takeOver: true })).toEqual(before);
        expect(await store.readOwner()).toEqual(before);
      });

      it("refuses another project with conflict, without naming the owner", async () => {
        const other = winner === projectA ? projectB : projectA;
        const error = await expectAppError(store.claimOwnership({ projectId: other }), "conflict");
        expect(error.message).toBe("this database is already attached to another Flowpoint project");
        expect(JSON.stringify({ message: error.message, issues: error.issues, field: error.field })).not.toContain(winner);
        expect((await store.readOwner())?.projectId).toBe(winner);
      });

      it("moves the database with takeOver; the previous owner is then refused", async () => {
        const other = winner === projectA ? projectB : projectA;
        const before = await store.readOwner();
        const moved = await store.claimOwnership({ projectId: other }, { takeOver: true });
        expect(moved.projectId).toBe(other);
        expect(moved.workspaceId).toBeUndefined();
        expect(moved.attachedAt >= before!.attachedAt).toBe(true);
        expect(await store.readOwner()).toEqual(moved);
        await expectAppError(store.claimOwnership({ projectId: winner, workspaceId: "wks_contract" }), "conflict");
        expect(await store.claimOwnership({ projectId: other })).toEqual(moved);
      });

      it("keeps the marker out of the collections and out of metrics.queries", async () => {
        for (const run of [
          () => store.insert("_flowpoint", { projectId: "prj_mine" }),
          () => store.find("_flowpoint"),
          () => store.deleteMany("_flowpoint", []),
          () => store.dropCollection("_flowpoint"),
        ]) {
          const error = await expectAppError(run(), "validation_failed");
          expect(error.issues?.map((issue) => issue.path)).toEqual(["collection"]);
        }
        const before = store.metrics.queries;
        await store.readOwner();
        await store.claimOwnership({ projectId: (await store.readOwner())!.projectId });
        expect(store.metrics.queries).toBe(before);
      });

      it("checks the claim before any query", async () => {
        for (const claim of [{ projectId: "" }, { projectId: "../x" }, { projectId: "prj_ok", workspaceId: "a b" }, null]) {
          await expectAppError(store.claimOwnership(claim as never), "validation_failed");
        }
      });
    });

    describe("dropCollection, ping and close", () => {
      it("drops a collection with its records and indexes (dropping twice is fine)", async () => {
        const collection = fresh("drop");
        await store.ensureUniqueIndex(collection, "email");
        await seed(collection, [{ email: "a" }, { email: "b" }]);
        await store.dropCollection(collection);
        await store.dropCollection(collection);
        expect(await store.find(collection)).toEqual([]);
        await seed(collection, [{ email: "a" }, { email: "a" }]);
        expect(await store.count(collection)).toBe(2);
      });

      it("pings", async () => {
        await expect(store.ping()).resolves.toBeUndefined();
        await expect(store.ping({ timeoutMs: 10_000 })).resolves.toBeUndefined();
      });

      it("closes: later operations answer unavailable; closing twice is fine", async () => {
        const other = await backend.open();
        await other.ping();
        await other.close();
        await other.close();
        await expectAppError(other.ping(), "unavailable");
        await expectAppError(other.find("tickets"), "unavailable");
        await expectAppError(other.insert("tickets", { a: 1 }), "unavailable");
      }, 60_000);
    });
  });
}
