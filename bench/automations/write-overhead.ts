import type { CpuProfileSummary } from "../summarize-cpu-profile";

/** A profile of the server over a write check run, and how many writes it answered meanwhile. */
export interface ProfiledWrites {
  summary: CpuProfileSummary;
  writes: number;
}

/**
 * What an automation adds to a records API write in the server's own CPU: busy time per write with
 * and without it, and the areas whose time per write changed most. Judged per write rather than by
 * writes/s, it barely depends on what else the machine runs.
 */
export function formatWriteOverhead(without: ProfiledWrites, withAutomation: ProfiledWrites, rows = 12): string {
  const perWrite = (ms: number, writes: number) => (writes > 0 ? (ms * 1000) / writes : 0);
  const areas = new Map<string, { without: number; with: number }>();
  for (const area of without.summary.areas) areas.set(area.area, { without: perWrite(area.ms, without.writes), with: 0 });
  for (const area of withAutomation.summary.areas) {
    const entry = areas.get(area.area) ?? { without: 0, with: 0 };
    entry.with = perWrite(area.ms, withAutomation.writes);
    areas.set(area.area, entry);
  }
  const busyWithout = perWrite(without.summary.busyMs, without.writes);
  const busyWith = perWrite(withAutomation.summary.busyMs, withAutomation.writes);
  const cell = (value: number) => value.toFixed(1).padStart(8);
  const lines = [
    `server CPU per write (µs): without the automation ${busyWithout.toFixed(1)}, with it ${busyWith.toFixed(1)} (${(busyWith - busyWithout).toFixed(1)} more)`,
    `  ${"area".padEnd(32)} ${"without".padStart(8)} ${"with".padStart(8)} ${"change".padStart(8)}`,
  ];
  const changed = [...areas].sort(([, a], [, b]) => Math.abs(b.with - b.without) - Math.abs(a.with - a.without)).slice(0, rows);
  for (const [area, { without: before, with: after }] of changed) lines.push(`  ${area.padEnd(32)} ${cell(before)} ${cell(after)} ${cell(after - before)}`);
  return lines.join("\n");
}
