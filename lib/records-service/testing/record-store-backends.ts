import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { getConfig } from "@/lib/config";
import { newId } from "@/lib/ids";
import { getRecordStore } from "@/lib/records/get-record-store";
import type { RecordStore } from "@/lib/records/record-store";

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
 * The record-store backends available in this run: the embedded PGlite store always, real
 * PostgreSQL (a fresh database per suite, dropped afterwards) when DATABASE_URL is set.
 */
export function recordStoreBackends(): RecordStoreBackend[] {
  const backends: RecordStoreBackend[] = [
    {
      name: "pglite",
      async open(projectId = newId("project")) {
        const store = getRecordStore({ projectId, kind: "local" });
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
  const serverUrl = getConfig().DATABASE_URL;
  if (serverUrl) {
    backends.push({
      name: "postgres",
      async open(projectId = newId("project")) {
        const database = `records_test_${randomBytes(6).toString("hex")}`;
        const admin = new pg.Client({ connectionString: serverUrl });
        await admin.connect();
        try {
          await admin.query(`CREATE DATABASE ${database}`);
        } finally {
          await admin.end();
        }
        const url = new URL(serverUrl);
        url.pathname = `/${database}`;
        const store = getRecordStore({ projectId, kind: "postgres", url: url.toString() });
        return {
          store,
          projectId,
          async cleanup() {
            await store.close();
            const dropper = new pg.Client({ connectionString: serverUrl });
            await dropper.connect();
            try {
              await dropper.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
            } finally {
              await dropper.end();
            }
          },
        };
      },
    });
  }
  return backends;
}
