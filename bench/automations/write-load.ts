import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Record writes for the automation benchmark: `POST <path>` with a small JSON record, either open
 * loop (a fixed offered rate, spread evenly over each millisecond rather than sent as one burst per
 * second like autocannon's overallRate, so that the delay to the run's start is not a burst's
 * queue) or closed loop (N connections, each sending its next write when the last is answered: the
 * records API's own peak). Every created record's id is kept with the time its answer was read.
 */

export interface WriteLoadOptions {
  baseUrl: string;
  path: string;
  durationSeconds: number;
  /** Open loop: writes per second to offer. */
  rate?: number;
  /** Closed loop: concurrent writers (ignored when `rate` is set). */
  connections?: number;
  /** Headers of the next request (the app rotates API keys: 600 calls a minute per key). */
  headers: () => Record<string, string>;
  /** Body of the i-th write of this run. */
  body: (index: number) => Record<string, unknown>;
  /** Open loop: most writes in flight at once; beyond it the generator skips (the target cannot keep up). */
  maxInFlight?: number;
  /** Updated as the load runs, for a sampler: writes sent and not yet answered. */
  progress?: { inFlight: number };
}

export interface WriteLoadResult {
  startedAt: number;
  endedAt: number;
  durationSeconds: number;
  /** Writes sent (open loop: ≤ rate × duration). */
  sent: number;
  /** Open loop: writes not sent because maxInFlight were still unanswered. */
  skipped: number;
  statuses: Record<string, number>;
  /** Answers other than 2xx, connection errors and bodies that name no record. */
  failures: number;
  /** Records created per second, over the time from the first write to the last answer. */
  writesPerSecond: number;
  /** Record id → epoch ms its answer was complete. */
  answeredAt: Map<string, number>;
  /** Answer latency in ms of the writes that created a record. */
  latencyMs: { p50: number; p95: number; p99: number; max: number };
}

/**
 * The created record's id in a write's answer: the record itself (`{ id }`: the app's 201, the
 * reference's) or Directus' envelope (`{ data: { id } }`, answered 200, with an integer key by
 * default); null when the answer names none.
 */
export function recordIdOfAnswer(body: unknown): string | null {
  const answer = body as { id?: unknown; data?: { id?: unknown } } | null;
  const id = answer?.id ?? answer?.data?.id;
  if (typeof id === "string" && id !== "") return id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  return null;
}

export function percentile(sorted: ArrayLike<number>, share: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
  return sorted[index] as number;
}

let activeStop: (() => void) | null = null;

/** Stops a running write load (Ctrl-C). */
export function stopWriteLoad(): void {
  activeStop?.();
}

export async function runWriteLoad(options: WriteLoadOptions): Promise<WriteLoadResult> {
  const url = new URL(options.baseUrl);
  const openLoop = options.rate !== undefined;
  const connections = openLoop ? 256 : (options.connections ?? 50);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const statuses: Record<string, number> = {};
  const answeredAt = new Map<string, number>();
  const latencies: number[] = [];
  let failures = 0;
  let sent = 0;
  let skipped = 0;
  let inFlight = 0;
  let stopped = false;
  activeStop = () => (stopped = true);

  const write = (index: number): Promise<void> =>
    new Promise((resolve) => {
      const payload = JSON.stringify(options.body(index));
      const started = performance.now();
      inFlight++;
      if (options.progress) options.progress.inFlight = inFlight;
      const done = () => {
        inFlight--;
        if (options.progress) options.progress.inFlight = inFlight;
        resolve();
      };
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: options.path,
          method: "POST",
          agent,
          headers: { ...options.headers(), "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const at = Date.now();
            const status = response.statusCode ?? 0;
            statuses[status] = (statuses[status] ?? 0) + 1;
            if (status >= 200 && status < 300) {
              try {
                const id = recordIdOfAnswer(JSON.parse(Buffer.concat(chunks).toString("utf8")));
                if (id === null) throw new Error("no id");
                answeredAt.set(id, at);
                latencies.push(performance.now() - started);
              } catch {
                failures++;
              }
            } else {
              failures++;
            }
            done();
          });
          response.on("error", () => {
            failures++;
            done();
          });
        },
      );
      request.on("error", () => {
        statuses.error = (statuses.error ?? 0) + 1;
        failures++;
        done();
      });
      request.end(payload);
    });

  const startedAt = Date.now();
  const deadline = startedAt + options.durationSeconds * 1000;
  const pending = new Set<Promise<void>>();
  const track = (promise: Promise<void>) => {
    pending.add(promise);
    void promise.then(() => pending.delete(promise));
  };
  try {
    if (openLoop) {
      const rate = options.rate as number;
      const maxInFlight = options.maxInFlight ?? Math.max(1_000, rate * 2);
      let due = 0;
      while (!stopped) {
        const now = Date.now();
        if (now >= deadline) break;
        // Every write due by now, evenly over time: at 1,000/s one a millisecond, not 1,000 at the second's start.
        const target = Math.floor(((now - startedAt) * rate) / 1000);
        while (due < target) {
          if (inFlight >= maxInFlight) skipped++;
          else track(write(sent++));
          due++;
        }
        await sleep(1);
      }
    } else {
      const writer = async () => {
        while (!stopped && Date.now() < deadline) await write(sent++);
      };
      await Promise.all(Array.from({ length: connections }, writer));
    }
    await Promise.all(pending);
  } finally {
    activeStop = null;
    agent.destroy();
  }
  const endedAt = Date.now();
  // Answers that trail the offered window count over the longer time they took: a write path that
  // cannot keep up shows a lower rate, not the offered one.
  const durationSeconds = Math.max(options.durationSeconds, (endedAt - startedAt) / 1000);
  latencies.sort((a, b) => a - b);
  return {
    startedAt,
    endedAt,
    durationSeconds,
    sent,
    skipped,
    statuses,
    failures,
    writesPerSecond: answeredAt.size / durationSeconds,
    answeredAt,
    latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99), max: percentile(latencies, 1) },
  };
}
