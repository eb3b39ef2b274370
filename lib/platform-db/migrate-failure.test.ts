import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const enabled = Boolean(process.env.DATABASE_URL);

/**
 * A migration that cannot apply stops `npm run db:migrate` (and start-up, which runs the same code)
 * with a message naming the problem, never a half-started app. Needs a PostgreSQL server to break.
 */
(enabled ? describe : describe.skip)(enabled ? "platform migrations on a broken database" : "platform migrations on a broken database — skipped: DATABASE_URL is not set", () => {
  it("fails with a clear message and a non-zero exit", async () => {
    const admin = new URL(process.env.DATABASE_URL!);
    admin.pathname = "/postgres";
    const name = `fp_broken_${Date.now()}`;
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`create database ${name}`);
    try {
      const target = new URL(admin);
      target.pathname = `/${name}`;
      const broken = new pg.Client({ connectionString: target.toString() });
      await broken.connect();
      // A table in the way of the first migration.
      await broken.query("create table workspaces (unrelated integer)");
      await broken.end();
      const failure = await run(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], { env: { ...process.env, DATABASE_URL: target.toString() } }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure).not.toBeNull();
      expect(failure!.code).toBe(1);
      expect(failure!.stderr).toContain("Platform database migration failed");
      expect(failure!.stderr).toContain("Start-up stopped");
    } finally {
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    }
  });
});
