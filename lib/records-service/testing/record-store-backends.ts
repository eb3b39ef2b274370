import { rm } from "node:fs/promises";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { newId } from "@/lib/ids";
import { getRecordStore } from "@/lib/records/get-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { customerDatabaseBackends } from "@/lib/records/testing/customer-databases";

/** Below the suites' hook timeout (vitest.config.ts, 60 s), so a slow start fails as itself. */
const PGLITE_OPEN_TIMEOUT_MS = 55_000;

/** A customer database opened for one test suite, with its own project id and a way to remove it. */
export interface OpenedRecordStore {
  store: RecordStore;
  projectId: string;
  cleanup(): Promise<void>;
}

export interface RecordStoreBackend {
  name: "pglite" | "postgres";
  open(projectId?: string): Promise<OpenedRecordStore>;
}

/**
 * The record-store backends available in this run (lib/records/testing/customer-databases.ts): the
 * embedded PGlite store always, real PostgreSQL (a fresh database per suite, dropped afterwards)
 * when DATABASE_URL is set.
 */
export function recordStoreBackends(): RecordStoreBackend[] {
  const backends: RecordStoreBackend[] = [
    {
      name: "pglite",
      async open(projectId = newId("project")) {
        const store = getRecordStore({ projectId, kind: "local" });
        // Opened here, under a deadline of its own: a WebAssembly PostgreSQL starting while the other
        // test files keep both cores busy can outlast a single operation's default 30 s.
        await store.ping({ timeoutMs: PGLITE_OPEN_TIMEOUT_MS });
        return {
          store,
          projectId,
          async cleanup() {
            await store.close();
            await rm(path.resolve(getConfig().DATA_DIR, "projects", projectId), { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const createDatabase = customerDatabaseBackends().find((backend) => backend.kind === "postgres")?.createDatabase;
  if (createDatabase) {
    backends.push({
      name: "postgres",
      async open(projectId = newId("project")) {
        const database = await createDatabase("records_test");
        const store = getRecordStore({ projectId, kind: "postgres", url: database.url });
        return {
          store,
          projectId,
          async cleanup() {
            await store.close();
            await database.drop();
          },
        };
      },
    });
  }
  return backends;
}
