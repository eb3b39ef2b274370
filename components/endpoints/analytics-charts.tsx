"use client";

import type { ReactElement } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AnalyticsPoint, AnalyticsRange } from "@/lib/endpoint-analytics/get-endpoint-analytics";
import { formatCount, formatIntervalStart, formatLatency } from "./analytics-format";

/*
 * The analytics tab's charts (recharts, loaded on this tab only, and there only when a chart comes
 * into view: analytics-chart-slot.tsx is the one importer). Each chart is decorative for assistive
 * technology: the page states the same numbers as text and tables beside it
 * (endpoint-analytics-view.tsx). Series differ by shape as well as colour.
 */

const AXIS_TICK = { fill: "#475569", fontSize: 12 };

interface ChartProps {
  points: AnalyticsPoint[];
  range: AnalyticsRange;
}

/** Fills the box that AnalyticsChart sizes and hides from assistive technology. */
function ChartFrame({ children }: { children: ReactElement }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      {children}
    </ResponsiveContainer>
  );
}

function tickLabel(range: AnalyticsRange) {
  return (value: string) => formatIntervalStart(value, range);
}

// The charts are hidden from assistive technology, which reads the table beside each instead; so
// recharts' keyboard layer is off, or the hidden chart would still take focus.
export function CallsChart({ points, range }: ChartProps) {
  const data = points.map((point) => ({ at: point.at, success: point.status2xx + point.status3xx, clientErrors: point.status4xx, serverErrors: point.status5xx }));
  return (
    <ChartFrame>
      <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="at" tickFormatter={tickLabel(range)} tick={AXIS_TICK} minTickGap={24} />
        <YAxis allowDecimals={false} tick={AXIS_TICK} width={48} tickFormatter={(value: number) => formatCount(value)} />
        <Tooltip labelFormatter={(label) => `${formatIntervalStart(String(label), range)} UTC`} formatter={(value) => formatCount(Number(value))} />
        <Legend wrapperStyle={{ fontSize: 12, color: "#334155" }} />
        <Bar dataKey="success" name="2xx/3xx" stackId="calls" fill="#4f46e5" isAnimationActive={false} />
        <Bar dataKey="clientErrors" name="4xx" stackId="calls" fill="#d97706" isAnimationActive={false} />
        <Bar dataKey="serverErrors" name="5xx" stackId="calls" fill="#be123c" isAnimationActive={false} />
      </BarChart>
    </ChartFrame>
  );
}

// No dot per point (up to 3 × 60 SVG circles to draw): the dash patterns tell the lines apart, and the
// hovered point still gets its dot.
export function LatencyChart({ points, range }: ChartProps) {
  return (
    <ChartFrame>
      <LineChart accessibilityLayer={false} data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="at" tickFormatter={tickLabel(range)} tick={AXIS_TICK} minTickGap={24} />
        <YAxis tick={AXIS_TICK} width={56} tickFormatter={(value: number) => formatLatency(value)} />
        <Tooltip
          labelFormatter={(label) => `${formatIntervalStart(String(label), range)} UTC`}
          formatter={(value) => formatLatency(value === null || value === undefined ? null : Number(value))}
        />
        <Legend wrapperStyle={{ fontSize: 12, color: "#334155" }} />
        <Line dataKey="p50Ms" name="p50" stroke="#047857" strokeWidth={2} dot={false} isAnimationActive={false} />
        <Line dataKey="p95Ms" name="p95" stroke="#4f46e5" strokeWidth={2} strokeDasharray="6 3" dot={false} isAnimationActive={false} />
        <Line dataKey="p99Ms" name="p99" stroke="#be123c" strokeWidth={2} strokeDasharray="2 3" dot={false} isAnimationActive={false} />
      </LineChart>
    </ChartFrame>
  );
}
