import type { AnalyticsRange } from "@/lib/endpoint-analytics/get-endpoint-analytics";

/** Browser-safe formatting for the analytics tab (server summaries and client charts alike). */

export const RANGE_LABELS: Record<AnalyticsRange, string> = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days" };

const TIME = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });
const DAY_TIME = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });

/** An interval's start in UTC: a time for the hour and the day, a date and time for the week. */
export function formatIntervalStart(iso: string, range: AnalyticsRange): string {
  return (range === "7d" ? DAY_TIME : TIME).format(new Date(iso));
}

export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** A latency: "0.4 ms", "12 ms", "1.25 s"; an em dash when nothing was measured. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return "—";
  if (ms >= 1_000) return `${(ms / 1_000).toFixed(2)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(1)} ms`;
}

export function formatRatio(ratio: number | null): string {
  if (ratio === null) return "—";
  return `${(ratio * 100).toFixed(ratio > 0 && ratio < 0.1 ? 1 : 0)} %`;
}
