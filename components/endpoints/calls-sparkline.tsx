import { formatCount } from "./analytics-format";

const WIDTH = 96;
const HEIGHT = 24;

/**
 * An endpoint's calls of the last 24 hours as a small inline SVG (server-rendered, no script). The
 * label states the total for screen readers; the total is also printed beside the line.
 */
export function CallsSparkline({ hourly, total, identity }: { hourly: readonly number[]; total: number; identity: string }) {
  const max = Math.max(1, ...hourly);
  const step = hourly.length > 1 ? WIDTH / (hourly.length - 1) : WIDTH;
  const points = hourly.map((calls, index) => `${(index * step).toFixed(1)},${(HEIGHT - 1 - (calls / max) * (HEIGHT - 2)).toFixed(1)}`).join(" ");
  const label = `${identity}: ${total === 1 ? "1 call" : `${formatCount(total)} calls`} in the last 24 hours`;
  return (
    <span className="inline-flex items-center gap-2" role="img" aria-label={label} title={label}>
      <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" className="overflow-visible">
        <line x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} stroke="#e2e8f0" strokeWidth={1} />
        {total > 0 && <polyline points={points} fill="none" stroke="#4f46e5" strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />}
      </svg>
      <span aria-hidden="true" className="w-14 text-right text-xs text-slate-600 tabular-nums">
        {formatCount(total)}
      </span>
    </span>
  );
}
