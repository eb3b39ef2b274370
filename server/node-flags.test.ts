import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "./node-flags";
import { PRODUCTION_BUNDLE_DIR } from "./node-entries";

const root = process.cwd();
const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** Allocates at a server's pace with a few MB alive at a time, then reports the young generation's size. */
const GROW_YOUNG_GENERATION = `
const v8 = require("node:v8");
let alive = [];
for (let i = 0; i < 8e6; i++) { alive.push({ i, text: "record " + i }); if (alive.length > 300000) alive = []; }
const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
console.log(JSON.stringify({ newSpaceMiB: newSpace.space_size / 2 ** 20 }));
`;

describe("SERVER_NODE_FLAGS", () => {
  it("are what npm start and npm run worker pass to node, with the files npm run build compiles", () => {
    const flags = SERVER_NODE_FLAGS.join(" ");
    expect(scripts.start).toBe(`node ${flags} ${PRODUCTION_BUNDLE_DIR}/start.cjs`);
    expect(scripts.worker).toBe(`node ${flags} ${PRODUCTION_BUNDLE_DIR}/worker.cjs`);
  });

  it("make the young generation grow past Node's default of 2 × 16 MB", async () => {
    const run = async (flags: readonly string[]) => {
      const { stdout } = await promisify(execFile)(process.execPath, [...flags, "-e", GROW_YOUNG_GENERATION], { cwd: root });
      return (JSON.parse(stdout.trim()) as { newSpaceMiB: number }).newSpaceMiB;
    };
    const [withDefaults, withServerFlags] = await Promise.all([run([]), run(SERVER_NODE_FLAGS)]);
    expect(withDefaults).toBeLessThanOrEqual(32);
    expect(withServerFlags).toBeGreaterThan(32);
  }, 60_000);
});
