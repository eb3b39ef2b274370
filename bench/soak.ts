import { clientIpPoolFor } from "./load/client-ips";
import { runLoad } from "./load/run-load";
import { residentBytes } from "./processes";
import { MAX_RSS_DRIFT, type Scenario } from "./scenarios";
import type { SoakReport } from "./report";

// Every second: the garbage collector's sawtooth lasts seconds, and coarser sampling aliases with it.
const SAMPLE_EVERY_MS = 1_000;
const MiB = 1024 * 1024;

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * Holds one scenario at a fixed rate for `minutes` and samples the app's resident memory
 * (/proc/<pid>/status VmRSS) every second. Single samples swing with every garbage collection, so
 * memory counts as flat when the mean of the last window stays within ±10 % of the mean of the
 * first window after the warm-up (warm-up and windows: a minute each, or a fifth of a shorter
 * soak). The windows' minimums (the floor after collections, where a leak shows first) are
 * reported beside them.
 */
export async function runSoak(options: {
  baseUrl: string;
  path: string;
  scenario: Scenario;
  rate: number;
  minutes: number;
  connections: number;
  pid: number;
  log: (line: string) => void;
}): Promise<SoakReport> {
  const seconds = Math.round(options.minutes * 60);
  const warmupSeconds = Math.min(60, Math.round(seconds / 5));
  const samples: Array<[number, number]> = [];
  const started = Date.now();
  const sample = () => {
    const bytes = residentBytes(options.pid);
    if (bytes === null) return;
    const at = Math.round((Date.now() - started) / 1000);
    samples.push([at, Math.round((bytes / MiB) * 10) / 10]);
  };
  sample();
  let loggedMinute = 0;
  const timer = setInterval(() => {
    sample();
    const last = samples[samples.length - 1];
    if (last && Math.floor(last[0] / 60) > loggedMinute) {
      loggedMinute = Math.floor(last[0] / 60);
      options.log(`soak ${last[0]} s: RSS ${last[1]} MiB`);
    }
  }, SAMPLE_EVERY_MS);
  let result;
  try {
    result = await runLoad({
      baseUrl: options.baseUrl,
      path: options.path,
      method: options.scenario.method,
      body: options.scenario.body,
      connections: options.connections,
      durationSeconds: seconds,
      overallRate: options.rate,
      clientIps: clientIpPoolFor(options.rate, seconds),
      expectedStatus: options.scenario.expectedStatus,
    });
  } finally {
    clearInterval(timer);
  }
  sample();

  const values = samples.map(([, mib]) => mib);
  const window = warmupSeconds;
  const lastAt = samples[samples.length - 1]?.[0] ?? 0;
  const firstWindow = samples.filter(([at]) => at >= warmupSeconds && at < warmupSeconds + window).map(([, mib]) => mib);
  const lastWindow = samples.filter(([at]) => at > lastAt - window).map(([, mib]) => mib);
  const afterWarmup = mean(firstWindow);
  const atEnd = mean(lastWindow);
  const drift = Math.abs(atEnd - afterWarmup) / afterWarmup;
  return {
    minutes: options.minutes,
    targetRate: options.rate,
    achievedRate: result.requestsPerSecond,
    latencyMs: result.latencyMs,
    failures: result.failures,
    samples,
    warmupSeconds,
    rssMiB: {
      first: values[0] ?? Number.NaN,
      afterWarmup: round1(afterWarmup),
      atEnd: round1(atEnd),
      floorAfterWarmup: Math.min(...firstWindow),
      floorAtEnd: Math.min(...lastWindow),
      last: values[values.length - 1] ?? Number.NaN,
      max: Math.max(...values),
      min: Math.min(...values),
    },
    drift,
    flat: drift <= MAX_RSS_DRIFT,
  };
}
