"use client";

import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from "react";
import type { AnalyticsPoint, AnalyticsRange } from "@/lib/endpoint-analytics/get-endpoint-analytics";

/*
 * Where a chart goes on the analytics tab. recharts (its own chunk, loaded by this import only) is
 * fetched and drawn when the box first comes into view: drawing both charts is one ~130 ms task on a
 * slow phone, and on a phone the charts are below the fold. The box keeps the chart's height from the
 * start, so nothing moves when it arrives; it is hidden from assistive technology like the chart
 * itself, whose numbers the summary and the table beside it state.
 */

export const CHART_HEIGHT = 240;

const CHARTS = {
  calls: lazy(() => import("./analytics-charts").then((module) => ({ default: module.CallsChart }))),
  latency: lazy(() => import("./analytics-charts").then((module) => ({ default: module.LatencyChart }))),
};

/** True once the element has been in the viewport. */
function useSeen(ref: RefObject<HTMLElement | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || seen) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}

export function AnalyticsChart({ kind, points, range }: { kind: keyof typeof CHARTS; points: AnalyticsPoint[]; range: AnalyticsRange }) {
  const box = useRef<HTMLDivElement>(null);
  const seen = useSeen(box);
  const Chart = CHARTS[kind];
  return (
    <div ref={box} aria-hidden="true" data-chart={kind} style={{ height: CHART_HEIGHT }}>
      {seen && (
        <Suspense fallback={null}>
          <Chart points={points} range={range} />
        </Suspense>
      )}
    </div>
  );
}
