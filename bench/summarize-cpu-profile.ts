import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";

/**
 * Where the app's time went in a V8 CPU profile: self time by area (our lib folders, each package,
 * Node internals, GC; idle left out) and the hottest functions.
 */

interface CallFrame {
  functionName: string;
  url: string;
  /** Zero-based, as are the columns. */
  lineNumber: number;
  columnNumber?: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const ROOT = process.cwd();

function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return url.split("/")[0] as string;
  const clean = url.replace(/^file:\/\//, "");
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)(?:\/dist\/compiled\/([^/]+))?/.exec(clean);
  if (packageMatch) return packageMatch[2] ? `${packageMatch[1]} (compiled ${packageMatch[2]})` : (packageMatch[1] as string);
  const relative = path.relative(ROOT, clean);
  if (!relative.startsWith("..")) {
    const parts = relative.split(path.sep);
    if (parts[0] === "lib" && parts.length > 2) return `lib/${parts[1]}`;
    if (parts[0] === ".next") return ".next (app bundle)";
    return parts.slice(0, Math.min(2, parts.length - 1)).join("/") || relative;
  }
  return clean;
}

/** Source maps of the compiled processes (bench/compiled-entries.ts) by file; null for a file without one. */
const sourceMaps = new Map<string, SourceMap | null>();

function sourceMapOf(file: string): SourceMap | null {
  if (!sourceMaps.has(file)) {
    let map: SourceMap | null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    sourceMaps.set(file, map);
  }
  return sourceMaps.get(file) ?? null;
}

/**
 * A frame in compiled code of ours (the processes' bundles in dist/, Next's chunks in .next/),
 * placed at its TypeScript source by the file's source map, so that its time is summed by its lib
 * folder as when tsx ran the sources. Frames of packages, of files without a map and of code a
 * map does not cover (the bundlers' helpers) stay as they are.
 */
function sourceFrame(callFrame: CallFrame): CallFrame {
  const file = callFrame.url.replace(/^file:\/\//, "");
  if (!/\.c?js$/.test(file) || file.includes("node_modules") || path.relative(ROOT, file).startsWith("..")) return callFrame;
  const entry = sourceMapOf(file)?.findEntry(callFrame.lineNumber, callFrame.columnNumber ?? 0);
  if (!entry || !("originalSource" in entry) || !entry.originalSource) return callFrame;
  const url = path.resolve(path.dirname(file), decodeURIComponent(entry.originalSource));
  return { functionName: callFrame.functionName, url, lineNumber: entry.originalLine, columnNumber: entry.originalColumn };
}

function describeFunction(callFrame: CallFrame): string {
  const { functionName, url, lineNumber } = callFrame;
  const where = url ? `${path.relative(ROOT, url.replace(/^file:\/\//, "")) || url}:${lineNumber + 1}` : "";
  return `${functionName || "(anonymous)"}${where ? ` ${where}` : ""}`;
}

export interface CpuProfileSummary {
  label: string;
  totalMs: number;
  /** Busy time (everything but idle). */
  busyMs: number;
  areas: Array<{ area: string; ms: number; shareOfBusy: number }>;
  functions: Array<{ name: string; area: string; ms: number; shareOfBusy: number }>;
}

export function summarizeCpuProfile(profile: CpuProfile, label: string, top = 25): CpuProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));

  const areas = new Map<string, number>();
  const functions = new Map<string, { area: string; ms: number }>();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const node = byId.get(id);
    if (!node) continue;
    totalMs += ms;
    const frame = sourceFrame(node.callFrame);
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const name = describeFunction(frame);
    const entry = functions.get(name) ?? { area, ms: 0 };
    entry.ms += ms;
    functions.set(name, entry);
  }
  const busyMs = totalMs - (areas.get("(idle)") ?? 0);
  const share = (ms: number) => (busyMs > 0 ? ms / busyMs : 0);
  return {
    label,
    totalMs,
    busyMs,
    areas: [...areas]
      .filter(([area]) => area !== "(idle)")
      .map(([area, ms]) => ({ area, ms, shareOfBusy: share(ms) }))
      .sort((a, b) => b.ms - a.ms),
    functions: [...functions]
      .filter(([, entry]) => entry.area !== "(idle)")
      .map(([name, entry]) => ({ name, area: entry.area, ms: entry.ms, shareOfBusy: share(entry.ms) }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top),
  };
}

export function formatCpuProfileSummary(summary: CpuProfileSummary, areaCount = 20): string {
  const percent = (share: number) => `${(share * 100).toFixed(1).padStart(5)} %`;
  const lines = [`${summary.label}: ${(summary.busyMs / 1000).toFixed(1)} s busy of ${(summary.totalMs / 1000).toFixed(1)} s`, "self time by area:"];
  for (const area of summary.areas.slice(0, areaCount)) lines.push(`  ${percent(area.shareOfBusy)}  ${area.area}`);
  lines.push("hottest functions (self time):");
  for (const fn of summary.functions) lines.push(`  ${percent(fn.shareOfBusy)}  ${fn.name}  [${fn.area}]`);
  return lines.join("\n");
}

// `tsx bench/summarize-cpu-profile.ts <file.cpuprofile>` prints the summary of an existing profile.
if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: tsx bench/summarize-cpu-profile.ts <file.cpuprofile> [top]");
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  console.log(formatCpuProfileSummary(summarizeCpuProfile(profile, file, Number(process.argv[3] ?? 25))));
}
