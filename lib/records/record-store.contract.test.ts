import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { MongoClient } from "mongodb";
import { describe, it } from "vitest";
import { getConfig } from "@/lib/config";
import { createMongoRecordStore } from "./mongodb/mongodb-record-store";
import { createPgliteRecordStore } from "./postgres/create-pglite-record-store";
import { createPostgresRecordStore } from "./postgres/create-postgres-record-store";
import { registerRecordStoreContract } from "./record-store.contract";
import { withMongoDatabase } from "./testing/mongo-database-url";
import { createScratchDatabase, type ScratchDatabase } from "./testing/scratch-postgres";

// PGlite: always. Each open() gets a directory of its own (one instance per directory).
{
  const base = path.join(getConfig().DATA_DIR, "record-store-contract");
  let root = "";
  let opened = 0;
  registerRecordStoreContract({
    name: "PGlite",
    async open() {
      if (!root) {
        mkdirSync(path.dirname(base), { recursive: true });
        root = mkdtempSync(`${base}-`);
      }
      opened += 1;
      return createPgliteRecordStore({ dataDir: path.join(root, `store-${opened}`) });
    },
    async cleanup() {
      if (root) rmSync(root, { recursive: true, force: true });
    },
  });
}

// PostgreSQL: when DATABASE_URL is set, in a freshly created database that is dropped afterwards.
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  let scratch: Promise<ScratchDatabase> | undefined;
  registerRecordStoreContract({
    name: "PostgreSQL",
    async open() {
      scratch ??= createScratchDatabase(databaseUrl, "records_contract");
      return createPostgresRecordStore({ url: (await scratch).url });
    },
    async cleanup() {
      await (await scratch)?.drop();
    },
  });
} else {
  describe("PostgreSQL record store contract — skipped: DATABASE_URL is not set", () => {
    it.skip("runs against a real PostgreSQL server when DATABASE_URL is set", () => undefined);
  });
}

// MongoDB: when MONGODB_URL is set, in a fresh database that is dropped afterwards.
const mongoUrl = process.env.MONGODB_URL;
if (mongoUrl) {
  const database = `records_contract_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const url = withMongoDatabase(mongoUrl, database);
  registerRecordStoreContract({
    name: "MongoDB",
    open: async () => createMongoRecordStore({ url }),
    async cleanup() {
      const client = new MongoClient(url);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    },
  });
} else {
  describe("MongoDB record store contract — skipped: MONGODB_URL is not set", () => {
    it.skip("runs against a real MongoDB 5.0+ when MONGODB_URL is set (see lib/records/README.md)", () => undefined);
  });
}
