import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Where the app's time went in a V8 CPU profile: self time by area (our lib folders, each package,
 * Node internals, GC; idle left out) and the hottest functions.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
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

function describeFunction(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
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
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const name = describeFunction(node);
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
