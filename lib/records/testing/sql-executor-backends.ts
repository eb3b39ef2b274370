import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/config";
import { createPgPoolExecutor } from "../postgres/pg-pool-executor";
import { createPgliteExecutor } from "../postgres/pglite-executor";
import type { SqlExecutor } from "../postgres/sql-executor";
import { createScratchDatabase, type ScratchDatabase } from "./scratch-postgres";

/** A SQL backend of the record store for a test that needs the executor itself (plans, statement counts). */
export interface SqlExecutorBackend {
  name: "PGlite" | "PostgreSQL";
  kind: "pglite" | "postgres";
  /** A fresh database: a PGlite directory, or a scratch database on the DATABASE_URL server. */
  open(): Promise<SqlExecutor>;
  cleanup(): Promise<void>;
}

/** PGlite always, PostgreSQL when DATABASE_URL is set; `label` names the directory or database. */
export function sqlExecutorBackends(label: string): SqlExecutorBackend[] {
  let root = "";
  const backends: SqlExecutorBackend[] = [
    {
      name: "PGlite",
      kind: "pglite",
      async open() {
        const base = path.join(getConfig().DATA_DIR, label.replaceAll("_", "-"));
        mkdirSync(path.dirname(base), { recursive: true });
        root = mkdtempSync(`${base}-`);
        return createPgliteExecutor({ dataDir: root });
      },
      async cleanup() {
        if (root) rmSync(root, { recursive: true, force: true });
      },
    },
  ];
  const url = process.env.DATABASE_URL;
  if (url) {
    let scratch: ScratchDatabase | undefined;
    backends.push({
      name: "PostgreSQL",
      kind: "postgres",
      async open() {
        scratch = await createScratchDatabase(url, label);
        return createPgPoolExecutor({ url: scratch.url });
      },
      async cleanup() {
        await scratch?.drop();
      },
    });
  }
  return backends;
}

/** An executor that notes every statement it runs, so that a test can ask the planner about exactly them. */
export function recordingExecutor(inner: SqlExecutor, statements: { sql: string; params: unknown[] }[]): SqlExecutor {
  return {
    query(sql, params, signal) {
      statements.push({ sql, params });
      return inner.query(sql, params, signal);
    },
    exec: (sql, signal) => inner.exec(sql, signal),
    close: () => inner.close(),
  };
}
