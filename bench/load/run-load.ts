import autocannon, { type AutocannonRequest } from "autocannon";
import type { ClientIpPool } from "./client-ips";

export interface LoadOptions {
  /** e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  path: string;
  method: "GET" | "POST";
  body: string | null;
  connections: number;
  durationSeconds: number;
  /** Requests per second to hold (autocannon overallRate); unset = as fast as the target answers. */
  overallRate?: number;
  clientIps: ClientIpPool;
  expectedStatus: number;
  /** Per request: the path to send instead of `path` (rotating query values). */
  nextPath?: () => string;
  /** Per request: extra headers (rotating API keys). */
  nextHeaders?: () => Record<string, string>;
}

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

export interface LoadResult {
  durationSeconds: number;
  responses: number;
  requestsPerSecond: number;
  /** Milliseconds, from every answer (autocannon's own histogram rounds to whole ms). */
  latencyMs: LatencySummary;
  statuses: Record<string, number>;
  /** Answers with another status than expected, plus connection errors and timeouts. */
  failures: number;
}

function percentile(sorted: Float64Array, share: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
  return sorted[index] as number;
}

/** Growable list of latencies without boxing every number. */
class LatencyRecorder {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(value: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = value;
  }

  summary(): LatencySummary {
    const sorted = this.values.slice(0, this.count).sort();
    let sum = 0;
    for (const value of sorted) sum += value;
    return {
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      mean: this.count ? sum / this.count : Number.NaN,
      max: this.count ? (sorted[this.count - 1] as number) : Number.NaN,
    };
  }
}

let active: { stop(): void } | null = null;

/** Stops a running load (Ctrl-C). */
export function stopActiveLoad(): void {
  active?.stop();
}

/** Runs autocannon in this process (which the benchmark pins to its own core) and measures every answer. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies = new LatencyRecorder();
  const statuses: Record<string, number> = {};
  const request: AutocannonRequest = {
    method: options.method,
    path: options.path,
    headers: options.body === null ? {} : { "content-type": "application/json" },
    ...(options.body === null ? {} : { body: options.body }),
    setupRequest: (built) => {
      built.headers["x-real-ip"] = options.clientIps.next();
      if (options.nextHeaders) Object.assign(built.headers, options.nextHeaders());
      if (options.nextPath) built.path = options.nextPath();
      return built;
    },
  };
  const instance = autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
    requests: [request],
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  });
  active = instance;
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
    latencies.add(responseTimeMs);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  try {
    const result = await instance;
    const responses = Object.values(statuses).reduce((sum, count) => sum + count, 0);
    const unexpected = responses - (statuses[options.expectedStatus] ?? 0);
    return {
      durationSeconds: result.duration,
      responses,
      requestsPerSecond: responses / result.duration,
      latencyMs: latencies.summary(),
      statuses,
      failures: unexpected + result.errors + result.timeouts,
    };
  } finally {
    active = null;
  }
}
