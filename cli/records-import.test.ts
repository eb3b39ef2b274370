import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closeKv } from "@/lib/kv/get-kv";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { closeAllRecordStores, getRecordStore } from "@/lib/records/get-record-store";
import { createRecord } from "@/lib/records-service/create-record";
import { createSchema } from "@/lib/schemas/create-schema";
import { createProjectFixture } from "@/test/fixtures";

/**
 * `flowpoint records import` in its own process, on a project made here through the services (the
 * CLI has no schema commands). This file and the CLI share one data directory, used one after the
 * other: the embedded databases (PGlite) serve one process at a time.
 */
const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), "flowpoint-cli-import-"));
process.env.DATA_DIR = dataDir;
resetConfigForTests();
const bin = path.resolve("bin", "flowpoint.mjs");

let projectId: string;
let authorId: string;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "development" }, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function ndjsonFile(name: string, lines: unknown[]): string {
  const file = path.join(dataDir, name);
  writeFileSync(file, `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`);
  return file;
}

beforeAll(async () => {
  const fixture = await createProjectFixture("CLI import");
  projectId = fixture.projectId;
  const store = await getProjectRecordStore({ projectId });
  await createSchema({ projectId, store, definition: { name: "authors", kind: "collection", fields: [{ name: "name", type: "string", required: true }] } });
  await createSchema({
    projectId,
    store,
    definition: {
      name: "books",
      kind: "collection",
      fields: [
        { name: "title", type: "string", required: true },
        { name: "isbn", type: "string", unique: true },
        { name: "author", type: "relation", target: "authors" },
      ],
    },
  });
  const schemas = [{ name: "authors", kind: "collection" as const, fields: [{ name: "name", type: "string" as const, required: true }] }];
  authorId = (await createRecord({ store, schema: schemas[0]!, schemas, projectId, origin: "api", input: { name: "Ursula" } })).id;
  // Hand the databases over to the CLI's process.
  await closeAllRecordStores();
  await closePlatformDb();
  await closeKv();
}, 120_000);

afterAll(async () => {
  await closeAllRecordStores();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("flowpoint records import", () => {
  it("explains itself", async () => {
    const help = await cli("records", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("records import --project ID --schema NAME FILE");
    expect(help.stdout).toContain("Exit codes");
    expect((await cli("--help")).stdout).toContain("records");
  }, 120_000);

  it("imports a file, prints progress on stderr and one JSON line on stdout; exit 3 when lines failed", async () => {
    const lines = Array.from({ length: 40 }, (_, index) => ({ title: `Book ${index}`, isbn: `isbn-${index}`, author: authorId }));
    const file = ndjsonFile("books.ndjson", [...lines.slice(0, 20), { title: "Copy", isbn: "isbn-3" }, "not json", ...lines.slice(20), { isbn: "no-title" }]);
    const result = await cli("records", "import", "--project", projectId, "--schema", "books", file);
    expect(result.code, result.stderr).toBe(3);
    const stdout = result.stdout.trim().split("\n");
    expect(stdout).toHaveLength(1);
    const answer = JSON.parse(stdout[0]!) as { imported: number; failedCount: number; failed: Array<{ line: number; issues: Array<{ path: string }> }> };
    expect(Object.keys(answer)).toEqual(["imported", "failedCount", "failed"]);
    expect(answer.imported).toBe(40);
    expect(answer.failedCount).toBe(3);
    expect(answer.failed.map((failure) => [failure.line, failure.issues[0]!.path])).toEqual([
      [21, "isbn"],
      [22, ""],
      [43, "title"],
    ]);
    // Not a terminal: plain progress lines, the last one with the totals.
    expect(result.stderr).not.toContain("\r");
    expect(result.stderr.trim().split("\n").at(-1)).toMatch(/^records import: 43 lines read, 40 imported, 3 failed, \d+ lines\/s$/);

    const clean = ndjsonFile("more.ndjson", [{ title: "Another", isbn: "isbn-new" }]);
    const second = await cli("records", "import", "--project", projectId, "--schema", "books", clean);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ imported: 1, failedCount: 0, failed: [] });

    const store = getRecordStore({ projectId, kind: "local" });
    expect(await store.count("books")).toBe(41);
    await closeAllRecordStores();
  }, 120_000);

  it("fails with one line on stderr and exit 2 on bad options", async () => {
    const file = ndjsonFile("one.ndjson", [{ title: "x" }]);
    const cases: string[][] = [
      ["records", "import", "--project", projectId, "--schema", "ghosts", file],
      ["records", "import", "--project", projectId, "--schema", "books", path.join(dataDir, "missing.ndjson")],
      ["records", "import", "--project", projectId, "--schema", "books"],
      ["records", "import", "--project", projectId, file],
      ["records", "import", "--project", "prj_missing", "--schema", "books", file],
      ["records", "export", "--project", projectId],
    ];
    for (const args of cases) {
      const result = await cli(...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
      expect(result.stderr).toMatch(/^error: /);
      expect(result.stdout).toBe("");
    }
  }, 120_000);
});
