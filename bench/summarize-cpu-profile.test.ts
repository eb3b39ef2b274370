import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleNodeEntries } from "@/server/bundle-node-entries";
import { summarizeCpuProfile, type CpuProfile } from "./summarize-cpu-profile";

const outdir = path.join(process.cwd(), ".data", `profile-test-${process.pid}`);
const SOURCE = "lib/records/normalize-document.ts";
const FUNCTION = "function normalizeValue(";

/** Zero-based line and column of the first occurrence of text. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const lines = text.split("\n");
  const line = lines.findIndex((candidate) => candidate.includes(needle));
  if (line < 0) throw new Error(`"${needle}" not found`);
  return { line, column: lines[line]!.indexOf(needle) };
}

/** A profile of one busy function (90 ms) and idle time (10 ms), at the given place. */
function profileAt(url: string, lineNumber: number, columnNumber: number): CpuProfile {
  return {
    nodes: [
      { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1, columnNumber: -1 }, children: [2, 3] },
      { id: 2, callFrame: { functionName: "normalizeValue", url, lineNumber, columnNumber } },
      { id: 3, callFrame: { functionName: "(idle)", url: "", lineNumber: -1, columnNumber: -1 } },
    ],
    samples: [2, 2, 2, 3],
    timeDeltas: [30_000, 30_000, 30_000, 10_000],
  };
}

describe("summarizeCpuProfile on a compiled process", () => {
  let bundle: string;
  beforeAll(async () => {
    [bundle] = (await bundleNodeEntries({ worker: "scripts/worker.ts" }, outdir)) as [string];
  }, 60_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("counts a function of the bundle under its source's lib folder, at its source line", () => {
    const generated = positionOf(readFileSync(bundle, "utf8"), FUNCTION);
    const source = positionOf(readFileSync(SOURCE, "utf8"), FUNCTION);
    const summary = summarizeCpuProfile(profileAt(`file://${bundle}`, generated.line, generated.column), "worker");
    expect(summary.busyMs).toBeCloseTo(90, 5);
    expect(summary.areas).toEqual([{ area: "lib/records", ms: 90, shareOfBusy: 1 }]);
    expect(summary.functions[0]).toMatchObject({ name: `normalizeValue ${SOURCE}:${source.line + 1}`, area: "lib/records", shareOfBusy: 1 });
  });

  it("leaves frames of packages and files without a source map where they are", () => {
    const summary = summarizeCpuProfile(profileAt(`file://${process.cwd()}/node_modules/bullmq/dist/cjs/classes/job.js`, 10, 2), "worker");
    expect(summary.areas.map((area) => area.area)).toEqual(["bullmq"]);
    const unmapped = summarizeCpuProfile(profileAt(`file://${outdir}/missing.cjs`, 10, 2), "worker");
    expect(unmapped.functions[0]?.name).toContain("missing.cjs:11");
  });
});
