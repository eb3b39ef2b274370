import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createEndpoint } from "@/lib/endpoints/create-endpoint";
import { deleteEndpoint } from "@/lib/endpoints/delete-endpoint";
import { closePlatformDb, getPlatformDb } from "@/lib/platform-db/client";
import { endpointStatsHour, endpointStatsMinute, projects } from "@/lib/platform-db/schema";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { settleAfterResponseWork } from "@/lib/http/after-response";
import { countEndpointCall } from "./count-endpoint-call";
import { EndpointCallCounter } from "./endpoint-call-counter";
import { flushEndpointStats } from "./flush-endpoint-stats";
import { getEndpointAnalytics } from "./get-endpoint-analytics";
import { getEndpointsSparklines } from "./get-endpoints-sparklines";
import { latencyBucketIndex } from "./latency-histogram";
import { pruneEndpointStats } from "./prune-endpoint-stats";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// Whole minutes and hours ago, so that a test's calls land in known rows whatever the clock.
const NOW = Math.floor(Date.now() / HOUR) * HOUR + 30 * MINUTE;

let fixture: ProjectFixture;
let endpointId: string;
let otherEndpointId: string;

beforeAll(async () => {
  fixture = await createProjectFixture("Analytics");
  endpointId = (await createEndpoint({ projectId: fixture.projectId, input: { name: "Stats", method: "GET", slug: "stats", response: { body: "{}" } } })).id;
  otherEndpointId = (await createEndpoint({ projectId: fixture.projectId, input: { name: "Other", method: "POST", slug: "other", response: { body: "{}" } } })).id;
});

afterAll(async () => {
  await closePlatformDb();
});

/** count()'s arguments before the time: project, endpoint, status, cache hit, duration. */
function callOf(status: number, durationMs = 4, extra: { cacheHit?: boolean; endpointId?: string } = {}) {
  return [fixture.projectId, extra.endpointId ?? endpointId, status, extra.cacheHit ?? false, durationMs] as const;
}

describe("flushEndpointStats", () => {
  it("adds two instances' counts of the same minute into one row, and into its hour", async () => {
    const first = new EndpointCallCounter();
    const second = new EndpointCallCounter();
    first.count(...callOf(200, 3, { cacheHit: true }), NOW);
    first.count(...callOf(404), NOW + 1_000);
    second.count(...callOf(200, 800), NOW + 2_000);
    second.count(...callOf(429), NOW + 3_000);
    second.count(...callOf(503), NOW - 5 * MINUTE);
    await Promise.all([flushEndpointStats(first), flushEndpointStats(second)]);
    // A later flush of the same minute adds again.
    first.count(...callOf(200), NOW + 4_000);
    await flushEndpointStats(first);

    const db = await getPlatformDb();
    const minutes = await db.select().from(endpointStatsMinute).where(eq(endpointStatsMinute.endpointId, endpointId)).orderBy(endpointStatsMinute.minute);
    expect(minutes.map((row) => [row.minute.getTime() - NOW, row.calls])).toEqual([
      [-5 * MINUTE, 1],
      [0, 5],
    ]);
    expect(minutes[1]).toMatchObject({ status2xx: 3, status3xx: 0, status4xx: 2, status5xx: 0, rateLimited: 1, cacheHits: 1, projectId: fixture.projectId });
    expect(minutes[1]!.latencyBuckets[latencyBucketIndex(800)]).toBe(1);
    expect(minutes[1]!.latencyBuckets.reduce((sum, n) => sum + n, 0)).toBe(5);

    const [hour] = await db.select().from(endpointStatsHour).where(eq(endpointStatsHour.endpointId, endpointId));
    expect(hour).toMatchObject({ calls: 6, status2xx: 3, status4xx: 2, status5xx: 1, rateLimited: 1, cacheHits: 1 });
    expect(hour!.hour.getTime()).toBe(NOW - 30 * MINUTE);
  });

  it("drops the counts of an endpoint deleted meanwhile instead of failing the flush", async () => {
    const doomed = await createEndpoint({ projectId: fixture.projectId, input: { name: "Doomed", method: "GET", slug: "doomed", response: { body: "{}" } } });
    const counter = new EndpointCallCounter();
    counter.count(...callOf(200, 2, { endpointId: doomed.id }), NOW);
    counter.count(...callOf(200, 2, { endpointId: otherEndpointId }), NOW);
    await deleteEndpoint({ projectId: fixture.projectId, endpointId: doomed.id });
    await flushEndpointStats(counter);
    expect(counter.hasCounts()).toBe(false);
    const db = await getPlatformDb();
    const [row] = await db.select().from(endpointStatsMinute).where(eq(endpointStatsMinute.endpointId, otherEndpointId));
    expect(row?.calls).toBe(1);
  });

  it("keeps the counts of a flush the database refused, for the next try", async () => {
    const counter = new EndpointCallCounter();
    counter.count(...callOf(200, 2, { endpointId: otherEndpointId }), NOW);
    const [aggregate] = counter.take();
    // More than an integer column holds: the statement fails as a lost connection would.
    counter.giveBack([{ ...aggregate!, calls: 3_000_000_000 }]);
    await flushEndpointStats(counter);
    expect(counter.hasCounts()).toBe(true);
    expect(counter.take().map((kept) => kept.calls)).toEqual([3_000_000_000]);
  });
});

describe("countEndpointCall", () => {
  it("writes the process's counts when its after-response work settles, as a shutdown does", async () => {
    const counted = await createEndpoint({ projectId: fixture.projectId, input: { name: "Counted", method: "GET", slug: "counted", response: { body: "{}" } } });
    const startedAt = performance.now();
    countEndpointCall({ projectId: fixture.projectId, endpointId: counted.id, status: 200, cacheHit: true, startedAt });
    countEndpointCall({ projectId: fixture.projectId, endpointId: counted.id, status: 500, cacheHit: false, startedAt });
    expect(await settleAfterResponseWork()).toBe(true);
    const db = await getPlatformDb();
    const rows = await db.select().from(endpointStatsMinute).where(eq(endpointStatsMinute.endpointId, counted.id));
    expect(rows.map(({ calls, status2xx, status5xx, cacheHits }) => ({ calls, status2xx, status5xx, cacheHits }))).toEqual([
      { calls: 2, status2xx: 1, status5xx: 1, cacheHits: 1 },
    ]);
    expect(Math.abs(rows[0]!.minute.getTime() - Math.floor(Date.now() / MINUTE) * MINUTE)).toBeLessThanOrEqual(MINUTE);
  });
});

describe("getEndpointAnalytics", () => {
  it("answers per-minute points and totals for the last hour, with percentiles from the merged histograms", async () => {
    const analytics = await getEndpointAnalytics({ projectId: fixture.projectId, endpointId, range: "1h", now: new Date(NOW + 10_000) });
    expect(analytics.points).toHaveLength(60);
    expect(analytics.points.at(-1)).toMatchObject({ at: new Date(NOW).toISOString(), calls: 5, status4xx: 2, rateLimited: 1 });
    expect(analytics.points.at(-6)).toMatchObject({ calls: 1, status5xx: 1 });
    expect(analytics.totals).toMatchObject({ calls: 6, status2xx: 3, status4xx: 2, status5xx: 1, rateLimited: 1, cacheHits: 1 });
    expect(analytics.totals.cacheHitRatio).toBeCloseTo(1 / 6);
    expect(analytics.totals.p50Ms).toBeGreaterThan(3);
    expect(analytics.totals.p50Ms).toBeLessThan(6);
    expect(analytics.totals.p99Ms).toBeGreaterThan(600);
  });

  it("answers 15-minute points for a day and hourly points for a week", async () => {
    const day = await getEndpointAnalytics({ projectId: fixture.projectId, endpointId, range: "24h", now: new Date(NOW + 10_000) });
    expect(day.points).toHaveLength(96);
    expect(day.stepMinutes).toBe(15);
    expect(day.points.at(-1)!.calls).toBe(5);
    expect(day.points.at(-2)!.calls).toBe(1);
    const week = await getEndpointAnalytics({ projectId: fixture.projectId, endpointId, range: "7d", now: new Date(NOW + 10_000) });
    expect(week.points).toHaveLength(168);
    expect(week.points.at(-1)!.calls).toBe(6);
    expect(week.totals.calls).toBe(6);
  });

  it("never reads another project's rows", async () => {
    const other = await createProjectFixture("Other analytics");
    const analytics = await getEndpointAnalytics({ projectId: other.projectId, endpointId, range: "7d", now: new Date(NOW) });
    expect(analytics.totals.calls).toBe(0);
    expect(analytics.totals.p50Ms).toBeNull();
  });
});

describe("getEndpointsSparklines", () => {
  it("answers every called endpoint's last 24 hours per hour in one query", async () => {
    const sparklines = await getEndpointsSparklines({ projectId: fixture.projectId, now: new Date(NOW) });
    expect(sparklines.get(endpointId)).toMatchObject({ total: 6 });
    expect(sparklines.get(endpointId)!.hourly).toHaveLength(24);
    expect(sparklines.get(endpointId)!.hourly.at(-1)).toBe(6);
    expect(sparklines.get(otherEndpointId)!.total).toBe(1);
  });
});

describe("pruneEndpointStats", () => {
  it("deletes minute rows after 48 hours and hour rows after the project's log retention", async () => {
    const db = await getPlatformDb();
    await db.update(projects).set({ logRetentionDays: 3 }).where(eq(projects.id, fixture.projectId));
    const counter = new EndpointCallCounter();
    for (const ago of [47 * HOUR, 49 * HOUR, 2 * 24 * HOUR + 23 * HOUR, 4 * 24 * HOUR]) counter.count(...callOf(200), NOW - ago);
    await flushEndpointStats(counter);
    const count = async (table: typeof endpointStatsMinute | typeof endpointStatsHour) =>
      (
        await db
          .select({ n: sql<number>`count(*)::int` })
          .from(table)
          .where(eq(table.endpointId, endpointId))
      )[0]!.n;
    expect(await count(endpointStatsMinute)).toBe(6);
    expect(await count(endpointStatsHour)).toBe(5);

    await pruneEndpointStats(db, new Date(NOW));
    const minutes = await db.select({ minute: endpointStatsMinute.minute }).from(endpointStatsMinute).where(eq(endpointStatsMinute.endpointId, endpointId));
    expect(minutes.map((row) => (NOW - row.minute.getTime()) / HOUR).sort((a, b) => a - b)).toEqual([0, 5 / 60, 47]);
    expect(await count(endpointStatsHour)).toBe(4);
    // Idempotent: a second instance pruning at once removes nothing more.
    await pruneEndpointStats(db, new Date(NOW));
    expect(await count(endpointStatsHour)).toBe(4);
  });
});
