import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { staleBuildReason } from "./stale-build";

describe("staleBuildReason", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A checkout with one source, one test and a build, each written at the given second. */
  function checkout(times: { source: number; test: number; build?: number }): string {
    root = mkdtempSync(path.join(os.tmpdir(), "stale-build-"));
    mkdirSync(path.join(root, "lib/records"), { recursive: true });
    const write = (file: string, second: number) => {
      writeFileSync(path.join(root, file), "x");
      utimesSync(path.join(root, file), second, second);
    };
    write("lib/records/store.ts", times.source);
    write("lib/records/store.test.ts", times.test);
    if (times.build !== undefined) {
      mkdirSync(path.join(root, ".next"));
      write(".next/BUILD_ID", times.build);
    }
    return root;
  }

  it("asks for a build when there is none", () => {
    expect(staleBuildReason(checkout({ source: 100, test: 100 }))).toBe("no production build yet");
  });

  it("names a bundled source changed after the build", () => {
    expect(staleBuildReason(checkout({ source: 300, test: 100, build: 200 }))).toBe("lib/records/store.ts changed after the last build");
  });

  it("keeps a build that is newer than every source, whatever the tests", () => {
    expect(staleBuildReason(checkout({ source: 100, test: 300, build: 200 }))).toBeNull();
  });
});
