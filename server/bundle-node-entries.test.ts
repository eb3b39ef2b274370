import { execFile } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleNodeEntries } from "./bundle-node-entries";
import { PRODUCTION_ENTRIES } from "./node-entries";
import { SERVER_NODE_FLAGS } from "./node-flags";

// Inside the project, as npm run build's dist/, so that the bundles' requires find node_modules.
const outdir = path.join(process.cwd(), ".data", `bundle-test-${process.pid}`);

/** Runs a compiled entry as npm start runs it; answers its exit code and what it printed. */
async function runBundle(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...SERVER_NODE_FLAGS, file], { env, timeout: 30_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

describe("bundleNodeEntries", () => {
  let files: string[];
  beforeAll(async () => {
    files = await bundleNodeEntries(PRODUCTION_ENTRIES, outdir);
  }, 60_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("writes one CommonJS file per entry, with its source map", () => {
    expect(files).toEqual([path.join(outdir, "start.cjs"), path.join(outdir, "worker.cjs")]);
    for (const file of files) {
      expect(existsSync(file)).toBe(true);
      expect(existsSync(`${file}.map`)).toBe(true);
    }
  });

  // Each process checks its configuration only once every module it imports has loaded, so its
  // own message proves that the whole bundle loads under plain node: the `@/` paths, Next's route
  // modules and package subpaths without extensions ("next/server").
  it("compiles the server into a file plain node runs, up to its configuration check", async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
    const { code, output } = await runBundle(files[0]!, env);
    expect(code).toBe(1);
    expect(output).toContain("Invalid configuration: ENCRYPTION_KEYS is required in production");
  }, 60_000);

  it("compiles the worker into a file plain node runs, up to its configuration check", async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: "test" };
    const { code, output } = await runBundle(files[1]!, env);
    expect(code).toBe(1);
    expect(output).toContain("npm run worker needs REDIS_URL");
  }, 60_000);
});
