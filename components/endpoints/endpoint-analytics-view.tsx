import { AppLink as Link } from "@/components/ui/app-link";
import type { ReactNode } from "react";
import { ANALYTICS_RANGES, type AnalyticsPoint, type EndpointAnalytics } from "@/lib/endpoint-analytics/get-endpoint-analytics";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { AnalyticsChart } from "./analytics-chart-slot";
import { formatCount, formatIntervalStart, formatLatency, formatRatio, RANGE_LABELS } from "./analytics-format";

function Tile({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
      {detail && <dd className="text-xs text-slate-600">{detail}</dd>}
    </div>
  );
}

/** The range switch: links, so that the URL holds the state and each range can be shared. */
function RangeSwitch({ path, active }: { path: string; active: EndpointAnalytics["range"] }) {
  return (
    <nav aria-label="Time range">
      <ul className="inline-flex rounded-lg border border-slate-200 bg-white p-0.5 shadow-sm">
        {ANALYTICS_RANGES.map((range) => (
          <li key={range}>
            <Link
              href={`${path}?range=${range}`}
              aria-current={range === active ? "page" : undefined}
              className={cn("inline-block rounded-md px-3 py-1 text-sm font-medium", range === active ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100")}
            >
              {RANGE_LABELS[range]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function busiest(points: AnalyticsPoint[], value: (point: AnalyticsPoint) => number | null): AnalyticsPoint | null {
  let best: AnalyticsPoint | null = null;
  for (const point of points) if ((value(point) ?? 0) > (best ? (value(best) ?? 0) : 0)) best = point;
  return best;
}

/** The chart's numbers, for readers who do not see it: the intervals with calls, in a collapsed table. */
function DataTable({
  caption,
  analytics,
  columns,
}: {
  caption: string;
  analytics: EndpointAnalytics;
  columns: Array<{ label: string; value: (point: AnalyticsPoint) => string }>;
}) {
  const rows = analytics.points.filter((point) => point.calls > 0);
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-indigo-700 hover:text-indigo-600">Show the numbers as a table</summary>
      {rows.length === 0 ? (
        <p className="mt-2 text-slate-600">No calls in this range.</p>
      ) : (
        <div className="mt-2 max-h-80 overflow-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label={caption}>
          <table className="w-full text-left text-sm tabular-nums">
            <caption className="sr-only">{caption}</caption>
            <thead className="sticky top-0 bg-slate-50 text-xs text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  From (UTC)
                </th>
                {columns.map((column) => (
                  <th key={column.label} scope="col" className="px-3 py-2 text-right font-medium">
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((point) => (
                <tr key={point.at}>
                  <th scope="row" className="px-3 py-1.5 font-normal text-slate-700">
                    {formatIntervalStart(point.at, analytics.range)}
                  </th>
                  {columns.map((column) => (
                    <td key={column.label} className="px-3 py-1.5 text-right text-slate-900">
                      {column.value(point)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

function ChartCard({ title, description, summary, children }: { title: string; description: string; summary: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <CardBody>
        <p className="mb-3 text-sm text-slate-700">{summary}</p>
        {children}
      </CardBody>
    </Card>
  );
}

/** The analytics tab: stat tiles, calls and latency over time, each with its numbers as text. */
export function EndpointAnalyticsView({ analytics, path }: { analytics: EndpointAnalytics; path: string }) {
  const { totals, range } = analytics;
  const interval = analytics.stepMinutes === 1 ? "minute" : analytics.stepMinutes === 60 ? "hour" : `${analytics.stepMinutes} minutes`;
  const rangeText = RANGE_LABELS[range].toLowerCase();
  const peak = busiest(analytics.points, (point) => point.calls);
  const slowest = busiest(analytics.points, (point) => point.p99Ms);
  const callsSummary =
    totals.calls === 0
      ? `No calls in the ${rangeText}.`
      : `${formatCount(totals.calls)} calls in the ${rangeText}: ${formatCount(totals.status4xx)} client errors (4xx, of which ${formatCount(totals.rateLimited)} rate limited) and ${formatCount(totals.status5xx)} server errors (5xx). Busiest ${interval}: ${peak ? `${formatIntervalStart(peak.at, range)} UTC, ${formatCount(peak.calls)} calls` : "none"}.`;
  const latencySummary =
    totals.calls === 0
      ? "No latency to show without calls."
      : `Over the ${rangeText}: p50 ${formatLatency(totals.p50Ms)}, p95 ${formatLatency(totals.p95Ms)}, p99 ${formatLatency(totals.p99Ms)}.${slowest ? ` Slowest ${interval} by p99: ${formatIntervalStart(slowest.at, range)} UTC, ${formatLatency(slowest.p99Ms)}.` : ""}`;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <RangeSwitch path={path} active={range} />
        <p className="text-xs text-slate-600">Per {interval}, times in UTC; counts of every instance arrive within about 10 seconds.</p>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <Tile label="Calls" value={formatCount(totals.calls)} />
        <Tile label="Client errors (4xx)" value={formatCount(totals.status4xx)} detail={`${formatCount(totals.rateLimited)} rate limited (429)`} />
        <Tile label="Server errors (5xx)" value={formatCount(totals.status5xx)} />
        <Tile label="Cache hits" value={formatRatio(totals.cacheHitRatio)} detail={`${formatCount(totals.cacheHits)} of ${formatCount(totals.calls)} calls`} />
        <Tile label="Latency p50" value={formatLatency(totals.p50Ms)} />
        <Tile label="Latency p95 / p99" value={formatLatency(totals.p95Ms)} detail={`p99 ${formatLatency(totals.p99Ms)}`} />
      </dl>
      <ChartCard title="Calls" description={`Calls per ${interval} by status class.`} summary={callsSummary}>
        <AnalyticsChart kind="calls" points={analytics.points} range={range} />
        <DataTable
          caption={`Calls per ${interval}, ${rangeText}`}
          analytics={analytics}
          columns={[
            { label: "Calls", value: (point) => formatCount(point.calls) },
            { label: "2xx/3xx", value: (point) => formatCount(point.status2xx + point.status3xx) },
            { label: "4xx", value: (point) => formatCount(point.status4xx) },
            { label: "429", value: (point) => formatCount(point.rateLimited) },
            { label: "5xx", value: (point) => formatCount(point.status5xx) },
            { label: "Cache hits", value: (point) => formatCount(point.cacheHits) },
          ]}
        />
      </ChartCard>
      <ChartCard title="Latency" description={`p50, p95 and p99 per ${interval}, from the request's arrival to the answer.`} summary={latencySummary}>
        <AnalyticsChart kind="latency" points={analytics.points} range={range} />
        <DataTable
          caption={`Latency per ${interval}, ${rangeText}`}
          analytics={analytics}
          columns={[
            { label: "p50", value: (point) => formatLatency(point.p50Ms) },
            { label: "p95", value: (point) => formatLatency(point.p95Ms) },
            { label: "p99", value: (point) => formatLatency(point.p99Ms) },
          ]}
        />
      </ChartCard>
    </div>
  );
}
