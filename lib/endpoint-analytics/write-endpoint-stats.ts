import { sql } from "drizzle-orm";
import type { PlatformDb } from "@/lib/platform-db/client";
import { addMinuteAggregate, emptyMinuteAggregate, mergeMinuteAggregates, type MinuteAggregate } from "./endpoint-call-counter";

const MINUTE_MS = 60_000;
const MINUTES_PER_HOUR = 60;

interface StatsRow {
  endpoint_id: string;
  project_id: string;
  at: string;
  calls: number;
  status_2xx: number;
  status_3xx: number;
  status_4xx: number;
  status_5xx: number;
  rate_limited: number;
  cache_hits: number;
  latency_buckets: number[];
}

function toRow(aggregate: MinuteAggregate, minutesPerRow: number): StatsRow {
  return {
    endpoint_id: aggregate.endpointId,
    project_id: aggregate.projectId,
    at: new Date(aggregate.minute * minutesPerRow * MINUTE_MS).toISOString(),
    calls: aggregate.calls,
    status_2xx: aggregate.status2xx,
    status_3xx: aggregate.status3xx,
    status_4xx: aggregate.status4xx,
    status_5xx: aggregate.status5xx,
    rate_limited: aggregate.rateLimited,
    cache_hits: aggregate.cacheHits,
    latency_buckets: Array.from(aggregate.latencyBuckets),
  };
}

/** The minute aggregates summed per endpoint and hour (`minute` then counts hours since the epoch). */
function sumPerHour(minutes: readonly MinuteAggregate[]): MinuteAggregate[] {
  const hours = new Map<string, MinuteAggregate>();
  for (const aggregate of minutes) {
    const hour = Math.floor(aggregate.minute / MINUTES_PER_HOUR);
    const key = `${aggregate.endpointId} ${hour}`;
    let sum = hours.get(key);
    if (!sum) hours.set(key, (sum = emptyMinuteAggregate(aggregate.projectId, aggregate.endpointId, hour)));
    addMinuteAggregate(sum, aggregate);
  }
  return [...hours.values()];
}

const COLUMNS = sql.raw("endpoint_id, project_id, calls, status_2xx, status_3xx, status_4xx, status_5xx, rate_limited, cache_hits, latency_buckets");
const RECORD_TYPE = sql.raw(
  "endpoint_id text, project_id text, at timestamptz, calls int, status_2xx int, status_3xx int, status_4xx int, status_5xx int, rate_limited int, cache_hits int, latency_buckets int[]",
);
// Element by element, in bucket order.
const ADD_COUNTS = sql.raw(`calls = t.calls + excluded.calls, status_2xx = t.status_2xx + excluded.status_2xx, status_3xx = t.status_3xx + excluded.status_3xx,
  status_4xx = t.status_4xx + excluded.status_4xx, status_5xx = t.status_5xx + excluded.status_5xx, rate_limited = t.rate_limited + excluded.rate_limited,
  cache_hits = t.cache_hits + excluded.cache_hits,
  latency_buckets = array(select coalesce(a, 0) + coalesce(b, 0) from unnest(t.latency_buckets, excluded.latency_buckets) with ordinality as u(a, b, i) order by i)`);

/**
 * Adds the aggregates' counts to the minute rows and to their hours' rows, in one statement: every
 * instance adds to the same rows, so no count is lost or counted twice whichever writes first, and
 * the hour rows (what the 7-day view and the sparklines read) need no separate roll-up pass that
 * could miss a late flush. Counts of endpoints deleted meanwhile are dropped (the join). Rows are
 * written in key order, so two instances flushing at once wait for each other instead of deadlocking.
 */
export async function writeEndpointStats(db: PlatformDb, aggregates: readonly MinuteAggregate[]): Promise<void> {
  if (aggregates.length === 0) return;
  const minutes = mergeMinuteAggregates(aggregates);
  const minuteRows = JSON.stringify(minutes.map((aggregate) => toRow(aggregate, 1)));
  const hourRows = JSON.stringify(sumPerHour(minutes).map((aggregate) => toRow(aggregate, MINUTES_PER_HOUR)));
  await db.execute(sql`
    with minute_rows as (
      select r.* from jsonb_to_recordset(${minuteRows}::jsonb) as r(${RECORD_TYPE})
      join endpoints e on e.id = r.endpoint_id and e.project_id = r.project_id
      order by r.endpoint_id, r.at
    ), hour_rows as (
      select r.* from jsonb_to_recordset(${hourRows}::jsonb) as r(${RECORD_TYPE})
      join endpoints e on e.id = r.endpoint_id and e.project_id = r.project_id
      order by r.endpoint_id, r.at
    ), written_minutes as (
      insert into endpoint_stats_minute as t (minute, ${COLUMNS}) select at, ${COLUMNS} from minute_rows
      on conflict (endpoint_id, minute) do update set ${ADD_COUNTS}
      returning 1
    )
    insert into endpoint_stats_hour as t (hour, ${COLUMNS}) select at, ${COLUMNS} from hour_rows
    on conflict (endpoint_id, hour) do update set ${ADD_COUNTS}`);
}
