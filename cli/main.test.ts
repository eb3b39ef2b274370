import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
// The CLI runs in its own process with its own embedded data directory (PGlite allows one process per
// directory), or against DATABASE_URL when the suite runs on real PostgreSQL.
const dataDir = mkdtempSync(path.join(tmpdir(), "flowpoint-cli-"));
const bin = path.resolve("bin", "flowpoint.mjs");

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "development" }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const email = `cli-${Date.now()}@example.test`;

// Each test starts the CLI up to five times, and each start loads and compiles the app's modules: on a
// slow machine one start takes 5–10 s, so the file's tests get the time of their child processes.
describe("command line", { timeout: 180_000 }, () => {
  it("prints help", async () => {
    const result = await cli("--help");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("setup");
    expect((await cli("setup", "--help")).stdout).toContain("--database-url");
    expect((await cli("api-keys", "--help")).stdout).toContain("endpoints.invoke");
  });

  it("sets up an owner, workspace and project, reusing them on a second run, and manages keys", async () => {
    const first = await cli("setup", "--email", email, "--password", "correct horse battery", "--workspace", "Acme", "--project", "Shop");
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const ids = JSON.parse(lines[0]!) as { userId: string; workspaceId: string; projectId: string };
    expect(Object.keys(ids)).toEqual(["userId", "workspaceId", "projectId"]);
    expect(ids.userId).toMatch(/^usr_/);
    expect(ids.workspaceId).toMatch(/^ws_/);
    expect(ids.projectId).toMatch(/^prj_/);

    const second = await cli("setup", "--email", email.toUpperCase(), "--password", "correct horse battery", "--workspace", "Acme", "--project", "Shop");
    expect(JSON.parse(second.stdout)).toEqual(ids);

    const created = await cli("api-keys", "create", "--project", ids.projectId, "--name", "deploy", "--permissions", "endpoints.invoke,records.read");
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; prefix: string };
    expect(Object.keys(key)).toEqual(["id", "key", "prefix"]);
    expect(key.key.startsWith(key.prefix)).toBe(true);

    const listed = await cli("api-keys", "list", "--project", ids.projectId);
    expect(listed.stdout).toContain(key.id);
    expect(listed.stdout).not.toContain(key.key);

    const revoked = await cli("api-keys", "revoke", "--project", ids.projectId, "--id", key.id);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: key.id });
  });

  it("fails with one line on stderr and a non-zero exit on bad input", async () => {
    const cases: string[][] = [
      ["setup", "--email", "not-an-email", "--password", "long enough pw", "--workspace", "W", "--project", "P"],
      ["setup", "--email", email, "--password", "wrong password!", "--workspace", "W", "--project", "P"],
      ["setup", "--email", email],
      ["setup", "--bogus"],
      ["api-keys", "create", "--project", "prj_missing", "--name", "x", "--permissions", "endpoints.read"],
      ["api-keys", "explode", "--project", "prj_missing"],
      ["nonsense"],
      [],
    ];
    for (const args of cases) {
      const result = await cli(...args);
      expect(result.code, args.join(" ")).not.toBe(0);
      if (args.length > 0) {
        expect(result.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
        expect(result.stderr).toMatch(/^error: /);
      }
    }
  });
});
