import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Child processes of the benchmark: started in their own process group, optionally pinned to a
 * core, logged to a file, and all killed when the benchmark ends for whatever reason.
 */

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  /** Settles when the process has exited. */
  exited: Promise<number | null>;
}

const running = new Set<ManagedProcess>();

export function hasTaskset(): boolean {
  return spawnSync("taskset", ["--version"], { stdio: "ignore" }).status === 0;
}

/** Pins every thread of this process (the load generator lives here) to `core`. */
export function pinSelf(core: number): void {
  const result = spawnSync("taskset", ["-a", "-cp", String(core), String(process.pid)], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`taskset could not pin the benchmark to core ${core}: ${result.stderr.trim()}`);
}

export function startProcess(options: {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  /** Core to pin to with taskset; null for none. */
  core: number | null;
}): ManagedProcess {
  const [command, args] = options.core === null ? [options.command, options.args] : ["taskset", ["-c", String(options.core), options.command, ...options.args]];
  // The log is the child's own file descriptor: it keeps working whatever happens to this process.
  const log = openSync(options.logFile, "a");
  // taskset execs the command, so the pid is the server's own (its /proc entry is the one to watch).
  const child = spawn(command, args, { env: options.env, stdio: ["ignore", log, log], detached: true });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`${options.name} could not be started`);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const managed: ManagedProcess = { name: options.name, child, pid: child.pid, logFile: options.logFile, exited };
  running.add(managed);
  void exited.then(() => running.delete(managed));
  return managed;
}

/** Asks the process to stop (SIGTERM: the app drains its after-response work), then kills its group. */
export async function stopProcess(managed: ManagedProcess, graceMs = 15_000): Promise<void> {
  if (!running.has(managed)) return;
  try {
    process.kill(managed.pid, "SIGTERM");
  } catch {
    // already gone
  }
  const stopped = await Promise.race([managed.exited.then(() => true), sleep(graceMs).then(() => false)]);
  killGroup(managed.pid);
  if (!stopped) await managed.exited;
  running.delete(managed);
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // the group is gone
  }
}

/** Synchronous last resort (process exit, a second Ctrl-C): kills every child group at once. */
export function killAllProcessesNow(): void {
  for (const managed of running) killGroup(managed.pid);
  running.clear();
}

export function tailOfLog(logFile: string, lines = 30): string {
  try {
    return readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Waits until `url` answers 200, failing early when the process exits. */
export async function waitForHttp(url: string, managed: ManagedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void managed.exited.then((code) => (exitCode = code));
  let last = "no answer";
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${managed.name} exited (code ${exitCode}) before ${url} answered; log ${managed.logFile}:\n${tailOfLog(managed.logFile)}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer 200 within ${Math.round(timeoutMs / 1000)} s (last: ${last}); log ${managed.logFile}`);
}

/** user + system CPU time in clock ticks from the text of /proc/<pid>/stat. */
function ticksOfStat(stat: string): number {
  // Fields after the command name (which may contain spaces) start after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** user + system CPU time of a process in clock ticks (usually 1/100 s). */
export function cpuTicks(pid: number): number | null {
  try {
    return ticksOfStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

/** The whole machine's CPU time in clock ticks since boot, busy and in all. */
export interface MachineTicks {
  busy: number;
  total: number;
}

/** Reads MachineTicks from /proc/stat; null where there is none. */
export function machineCpuTicks(): MachineTicks | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
    // cpu user nice system idle iowait irq softirq steal: idle and iowait are the time nothing ran.
    const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return null;
  }
}

/** The share of the machine's CPU time that was busy between two readings of machineCpuTicks. */
export function machineBusyShare(before: MachineTicks | null, after: MachineTicks | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (after.busy - before.busy) / (after.total - before.total);
}

/** CPU ticks of every running process with this command name ("postgres", "redis-server"), by pid. */
export function commandTicks(command: string): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === command) ticks.set(Number(entry), ticksOfStat(stat));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return ticks;
}

/**
 * Ticks spent between two readings of commandTicks: a process that started meanwhile counts from
 * zero; one that ended meanwhile is missed (its last ticks are gone with it), so this is a floor.
 */
export function ticksBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let spent = 0;
  for (const [pid, ticks] of after) {
    const earlier = before.get(pid) ?? 0;
    // A pid taken again by a new process can read lower than before: that one counts from zero too.
    spent += ticks >= earlier ? ticks - earlier : ticks;
  }
  return spent;
}

/** Resident memory in bytes (VmRSS), or null when the process is gone. */
export function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Waits until `spentSince` (CPU ticks since its previous call, null when there is nothing left to
 * watch) reads at most 2 ticks per 200 ms three times running. Answers whether that came within `maxMs`.
 */
async function waitForQuiet(spentSince: () => number | null, maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  let quietSamples = 0;
  while (quietSamples < 3) {
    if (Date.now() >= deadline) return false;
    await sleep(200);
    const spent = spentSince();
    if (spent === null) return true;
    quietSamples = spent <= 2 ? quietSamples + 1 : 0;
  }
  return true;
}

/**
 * Waits until every process with this command name ("postgres") is as quiet as waitForIdle's one
 * process, so that work a step leaves behind in a shared server (autovacuum, a checkpoint) does not
 * land in the next step. Answers whether they went quiet within `maxMs`.
 */
export function waitForCommandIdle(command: string, maxMs = 30_000): Promise<boolean> {
  let previous = commandTicks(command);
  return waitForQuiet(() => {
    const now = commandTicks(command);
    const spent = ticksBetween(previous, now);
    previous = now;
    return spent;
  }, maxMs);
}

/**
 * Waits until the process has stopped using CPU (its after-response work, such as execution logs,
 * is done), so that it does not steal time from the next measurement. At most `maxMs`.
 */
export async function waitForIdle(pid: number, maxMs = 20_000): Promise<void> {
  const first = cpuTicks(pid);
  if (first === null) return;
  let previous = first;
  await waitForQuiet(() => {
    const now = cpuTicks(pid);
    if (now === null) return null;
    const spent = now - previous;
    previous = now;
    return spent;
  }, maxMs);
}
