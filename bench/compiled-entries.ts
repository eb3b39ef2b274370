import path from "node:path";
import { bundleNodeEntries } from "@/server/bundle-node-entries";
import { PRODUCTION_BUNDLE_DIR, PRODUCTION_ENTRIES } from "@/server/node-entries";

/**
 * Every process the benchmarks measure runs compiled ahead of time, the app's as `npm start` and
 * `npm run worker` run it and the references' alike, so neither side pays tsx's run-time naming of
 * closures. They are compiled from the sources at each run (under a second), into a folder of
 * their own, so a run measures the code as it is even when `npm run build` was not run after it.
 */
const BENCH_ENTRIES = {
  ...PRODUCTION_ENTRIES,
  "automation-worker": "bench/automations/automation-worker.ts",
  reference: "bench/reference/server.ts",
  "automation-reference": "bench/reference/automation-reference.ts",
  floor: "bench/reference/floor-server.ts",
} as const;

export type BenchEntry = keyof typeof BENCH_ENTRIES;

const BENCH_BUNDLE_DIR = path.join(PRODUCTION_BUNDLE_DIR, "bench");

export async function compileBenchEntries(): Promise<void> {
  await bundleNodeEntries(BENCH_ENTRIES, BENCH_BUNDLE_DIR);
}

/** The compiled file of an entry, as the script argument of `node`. */
export function compiledEntry(name: BenchEntry): string {
  return path.join(BENCH_BUNDLE_DIR, `${name}.cjs`);
}
