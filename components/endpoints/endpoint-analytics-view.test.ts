import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AnalyticsPoint, EndpointAnalytics } from "@/lib/endpoint-analytics/get-endpoint-analytics";
import { CallsSparkline } from "./calls-sparkline";
import { EndpointAnalyticsView } from "./endpoint-analytics-view";

const FROM = Date.parse("2026-11-24T12:00:00.000Z");

function point(minute: number, counts: Partial<AnalyticsPoint> = {}): AnalyticsPoint {
  return {
    at: new Date(FROM + minute * 60_000).toISOString(),
    calls: 0,
    status2xx: 0,
    status3xx: 0,
    status4xx: 0,
    status5xx: 0,
    rateLimited: 0,
    cacheHits: 0,
    p50Ms: null,
    p95Ms: null,
    p99Ms: null,
    ...counts,
  };
}

const analytics: EndpointAnalytics = {
  range: "1h",
  stepMinutes: 1,
  from: new Date(FROM).toISOString(),
  to: new Date(FROM + 3_600_000).toISOString(),
  totals: { calls: 1_250, status2xx: 1_200, status3xx: 0, status4xx: 42, status5xx: 8, rateLimited: 30, cacheHits: 500, cacheHitRatio: 0.4, p50Ms: 3.2, p95Ms: 48.6, p99Ms: 1_480 },
  points: Array.from({ length: 60 }, (_, minute) =>
    minute === 5
      ? point(5, { calls: 1_000, status2xx: 990, status4xx: 10, p50Ms: 3, p95Ms: 40, p99Ms: 90 })
      : minute === 7
        ? point(7, { calls: 250, status2xx: 210, status4xx: 32, status5xx: 8, rateLimited: 30, p50Ms: 4, p95Ms: 400, p99Ms: 1_480 })
        : point(minute),
  ),
};

describe("the analytics tab", () => {
  it("states every number as text: tiles, summaries and tables, without hovering", () => {
    const html = renderToStaticMarkup(createElement(EndpointAnalyticsView, { analytics, path: "/projects/prj_1/endpoints/ep_1/analytics" }));
    for (const text of ["1,250", "42", "30 rate limited (429)", "40 %", "500 of 1,250 calls", "3.2 ms", "49 ms", "p99 1.48 s"]) expect(html).toContain(text);
    expect(html).toContain("1,250 calls in the last hour: 42 client errors (4xx, of which 30 rate limited) and 8 server errors (5xx). Busiest minute: 12:05 UTC, 1,000 calls.");
    expect(html).toContain("Slowest minute by p99: 12:07 UTC, 1.48 s.");
    // The tables list the intervals with calls only.
    expect(html.match(/<tr><th scope="row"/g)).toHaveLength(4);
    expect(html).toContain('href="/projects/prj_1/endpoints/ep_1/analytics?range=7d"');
    expect(html).toMatch(/aria-current="page"[^>]*>Last hour</);
  });

  it("says so when there were no calls", () => {
    const empty = {
      ...analytics,
      totals: { ...analytics.totals, calls: 0, p50Ms: null, p95Ms: null, p99Ms: null, cacheHitRatio: null },
      points: analytics.points.map((p) => point(0, { at: p.at })),
    };
    const html = renderToStaticMarkup(createElement(EndpointAnalyticsView, { analytics: empty, path: "/x" }));
    expect(html).toContain("No calls in the last hour.");
    expect(html).toContain("No calls in this range.");
  });
});

describe("CallsSparkline", () => {
  it("draws the last 24 hours and names the total for screen readers", () => {
    const hourly = Array.from({ length: 24 }, (_, hour) => (hour === 23 ? 40 : hour === 10 ? 20 : 0));
    const html = renderToStaticMarkup(createElement(CallsSparkline, { hourly, total: 60, identity: "GET tickets" }));
    expect(html).toContain('role="img" aria-label="GET tickets: 60 calls in the last 24 hours"');
    expect(html).toMatch(/<polyline points="0\.0,23\.0 [^"]* 96\.0,1\.0"/);
  });
});
