import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import { getConfig } from "@/lib/config";
import { createMongoRecordStore } from "./mongodb/mongodb-record-store";
import { createPgliteRecordStore } from "./postgres/create-pglite-record-store";
import { createPostgresRecordStore } from "./postgres/create-postgres-record-store";
import { registerRecordStoreContract } from "./record-store.contract";
import { customerDatabaseBackends, type FreshDatabase } from "./testing/customer-databases";

/** Every customer database backend of this run (testing/customer-databases.ts); a skipped suite names the variable of one that is off. */
for (const backend of customerDatabaseBackends()) {
  if (backend.kind === "local") {
    // PGlite: each open() gets a directory of its own (one instance per directory).
    const base = path.join(getConfig().DATA_DIR, "record-store-contract");
    let root = "";
    let opened = 0;
    registerRecordStoreContract({
      name: backend.name,
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
    continue;
  }
  const { createDatabase, kind } = backend;
  if (!createDatabase) {
    describe(`${backend.name} record store contract — skipped: ${backend.variable} is not set`, () => {
      it.skip(`runs against a real ${backend.name} server when ${backend.variable} is set (see lib/records/README.md)`, () => undefined);
    });
    continue;
  }
  // A server backend: in one freshly created database, dropped afterwards.
  let database: Promise<FreshDatabase> | undefined;
  registerRecordStoreContract({
    name: backend.name,
    async open() {
      database ??= createDatabase("records_contract");
      const { url } = await database;
      return kind === "postgres" ? createPostgresRecordStore({ url }) : createMongoRecordStore({ url });
    },
    async cleanup() {
      await (await database)?.drop();
    },
  });
}
