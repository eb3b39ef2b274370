import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Private servers for the fault tests (security issue 9, item 10): each test file starts its OWN
 * redis-server or PostgreSQL cluster on a free loopback port and signals only that process, by its
 * own pid. The shared Redis (6379) and PostgreSQL (5432) are never touched.
 */

/** A loopback port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once something accepts TCP connections on the port (or throws after timeoutMs). */
export async function waitForPort(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: "127.0.0.1", port });
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Sends a signal to one process by pid; a process already gone is fine. */
export function signal(pid: number | undefined, name: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, name);
  } catch {
    // Already exited.
  }
}

export interface PrivateRedis {
  port: number;
  url: string;
  readonly pid: number | undefined;
  /** SIGSTOP: the process keeps its sockets open and answers nothing. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Resumes and kills it, whatever state it is in (afterAll). */
  dispose(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => child.once("exit", () => resolve()));
}

/** Starts `redis-server` without persistence on a free loopback port. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const spawned = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"], {
      stdio: "ignore",
    });
    child = spawned;
    // Should the test process die without its afterAll, the server must not outlive it.
    const killOnExit = () => {
      signal(spawned.pid, "SIGCONT");
      signal(spawned.pid, "SIGKILL");
    };
    process.once("exit", killOnExit);
    spawned.once("exit", () => process.off("exit", killOnExit));
    await waitForPort(port);
  };
  const stop = async () => {
    const current = child;
    if (!current) return;
    signal(current.pid, "SIGCONT");
    signal(current.pid, "SIGTERM");
    const killTimer = setTimeout(() => signal(current.pid, "SIGKILL"), 5_000);
    await exited(current);
    clearTimeout(killTimer);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid;
    },
    pause: () => signal(child?.pid, "SIGSTOP"),
    resume: () => signal(child?.pid, "SIGCONT"),
    stop,
    start,
    dispose: stop,
  };
}

/** The newest installed PostgreSQL's bin directory (Debian layout), or the one on PATH. */
function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(path.join(root, name, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], "bin");
  }
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() ? path.dirname(found.stdout.trim()) : null;
}

export function postgresBinariesAvailable(): boolean {
  return postgresBinDir() !== null;
}

export interface PrivatePostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication on loopback). */
  url: string;
  /** `pg_ctl stop -m immediate`: every backend is gone at once, as in a crash. */
  stopImmediate(): void;
  /** SIGSTOP to the postmaster and every backend (by pid): connections stay open and nothing answers. */
  pause(): void;
  /** SIGCONT to every process paused. */
  resume(): void;
  start(): Promise<void>;
  /** Stops it whatever state it is in and removes the data directory (afterAll). */
  dispose(): void;
}

/**
 * initdb into a temporary directory and start the cluster on a free loopback port. PostgreSQL refuses
 * to run as root: as root, the directory belongs to the `postgres` user and the tools run as it.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL binaries (initdb, pg_ctl) are not installed");
  const port = await freePort();
  const root = mkdtempSync(path.join(tmpdir(), "flowpoint-faults-pg-"));
  const dataDir = path.join(root, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gids = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (ids.status !== 0) throw new Error("running as root and there is no postgres user to run the cluster as");
    chownSync(root, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8", cwd: root })
      : spawnSync(command, args, { encoding: "utf8", cwd: root });
    return result;
  };
  const initialised = run("initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"]);
  if (initialised.status !== 0) throw new Error(`initdb failed: ${initialised.stderr}`);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  const start = async () => {
    const started = run("pg_ctl", ["-D", dataDir, "-o", options, "-l", path.join(root, "server.log"), "-w", "-t", "30", "start"]);
    if (started.status !== 0) throw new Error(`pg_ctl start failed: ${started.stderr}`);
    await waitForPort(port);
  };
  let paused: number[] = [];
  const resume = () => {
    for (const pid of paused) signal(pid, "SIGCONT");
    paused = [];
  };
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    process.off("exit", dispose);
    resume();
    run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    rmSync(root, { recursive: true, force: true });
  };
  // Should the test process die without its afterAll (or start fail), the cluster must not outlive it.
  process.once("exit", dispose);
  try {
    await start();
  } catch (error) {
    dispose();
    throw error;
  }
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stopImmediate: () => {
      run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    },
    pause: () => {
      const postmaster = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      paused = [postmaster, ...childrenOf(postmaster)];
      for (const pid of paused) signal(pid, "SIGSTOP");
    },
    resume,
    start,
    dispose,
  };
}

/** The pids whose parent is `parent` (Linux /proc). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // The process exited meanwhile.
    }
  }
  return children;
}
