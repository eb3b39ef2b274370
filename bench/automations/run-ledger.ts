import pg from "pg";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { runsInJob } from "@/lib/automations/queue/bullmq-automation-queue";
import { COPIES_SCHEMA, REFERENCE_SCHEMA } from "./names";

/**
 * What the automation benchmark reads back from one target: its queue's backlog (BullMQ's own
 * counts, each a single Redis call, cheap enough to sample every quarter second) and, after a
 * step, the runs its events started (the app's execution logs with the copies they made, the
 * reference's run rows).
 */

/** One run of one event, as logged. */
export interface LoggedRun {
  /** The id of the record whose creation started the run. */
  recordId: string;
  /** Epoch ms the run started (the log's startedAt, the process's clock). */
  startedAt: number;
  /** Epoch ms it ended (startedAt + durationMs; the reference logs no duration). */
  endedAt: number;
  outcome: string;
  attempt: number | null;
  retryOf: string | null;
  afterInterruption: boolean;
}

export interface QueueBacklog {
  /** Runs queued and not finished: waiting + active + delayed + prioritized. Every answered write queued one. */
  backlog: number;
  /** Part of it put back for a moment because the project had no free run slot (the app's slot limit). */
  delayed: number;
  active: number;
  failed: number;
}

export interface RunLedger {
  backlog(): Promise<QueueBacklog>;
  /** Runs in progress right now (the app: holders of the project's run slots; the reference: active jobs). */
  runsInProgress(): Promise<number>;
  /** Runs started since `sinceMs`, and per record how many rows the run wrote (copies). */
  runsSince(sinceMs: number): Promise<{ runs: LoggedRun[]; copiesPerRecord: Map<string, number> }>;
  close(): Promise<void>;
}

const RECORD_ID_IN_PREVIEW = /"record":\{"id":"([^"]+)"/;

/** The app's execution logs hold the trigger payload as a JSON preview (capped, redacted). */
function recordIdFromPreview(preview: string | null): string | null {
  if (!preview) return null;
  try {
    const trigger = JSON.parse(preview) as { record?: { id?: unknown } };
    if (typeof trigger.record?.id === "string") return trigger.record.id;
  } catch {
    // a capped preview is not whole JSON
  }
  return RECORD_ID_IN_PREVIEW.exec(preview)?.[1] ?? null;
}

class QueueCounts {
  readonly connection: Redis;
  private readonly queue: Queue;

  /** `runsPerJob`: the app's queue holds batches of runs (batchJobId), so its backlog is counted in runs from the job ids. */
  constructor(
    redisUrl: string,
    private readonly name: string,
    private readonly prefix: string,
    private readonly runsPerJob?: (jobId: string) => number,
  ) {
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    this.queue = new Queue(name, { connection: this.connection, prefix });
  }

  async backlog(): Promise<QueueBacklog> {
    if (this.runsPerJob) return this.backlogInRuns(this.runsPerJob);
    const counts = await this.queue.getJobCounts("waiting", "active", "delayed", "prioritized", "failed");
    const delayed = counts.delayed ?? 0;
    const active = counts.active ?? 0;
    return { backlog: (counts.waiting ?? 0) + active + delayed + (counts.prioritized ?? 0), delayed, active, failed: counts.failed ?? 0 };
  }

  /** One round trip: the ids of every waiting, active, delayed and prioritized job, each counted by its runs. */
  private async backlogInRuns(runsPerJob: (jobId: string) => number): Promise<QueueBacklog> {
    const key = (part: string) => `${this.prefix}:${this.name}:${part}`;
    const replies = await this.connection
      .multi()
      .lrange(key("wait"), 0, -1)
      .lrange(key("active"), 0, -1)
      .zrange(key("delayed"), 0, -1)
      .zrange(key("prioritized"), 0, -1)
      .zcard(key("failed"))
      .exec();
    if (!replies) throw new Error("the queue's backlog could not be read");
    const runs = (index: number) => ((replies[index]?.[1] as string[] | undefined) ?? []).reduce((sum, id) => sum + runsPerJob(id), 0);
    const [waiting, active, delayed, prioritized] = [runs(0), runs(1), runs(2), runs(3)];
    return { backlog: waiting + active + delayed + prioritized, delayed, active, failed: Number(replies[4]?.[1] ?? 0) };
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The runs of a target that logs only a row per completed run, with its start (the reference's run
 * rows, Directus' copies), each counted as the copy it made.
 */
export function completedRuns(rows: ReadonlyArray<{ recordId: string; startedAt: number }>): { runs: LoggedRun[]; copiesPerRecord: Map<string, number> } {
  const runs: LoggedRun[] = [];
  const copiesPerRecord = new Map<string, number>();
  for (const { recordId, startedAt } of rows) {
    runs.push({ recordId, startedAt, endedAt: startedAt, outcome: "completed", attempt: 1, retryOf: null, afterInterruption: false });
    copiesPerRecord.set(recordId, (copiesPerRecord.get(recordId) ?? 0) + 1);
  }
  return { runs, copiesPerRecord };
}

/** The app: BullMQ queue "automations" under `${KV_KEY_PREFIX}bull`, logs in `_executions`, copies in `copies`. */
export function appLedger(options: { redisUrl: string; keyPrefix: string; customerDatabaseUrl: string; projectId: string; automationId: string }): RunLedger {
  const counts = new QueueCounts(options.redisUrl, "automations", `${options.keyPrefix}bull`, runsInJob);
  const pool = new pg.Pool({ connectionString: options.customerDatabaseUrl, max: 2, application_name: "flowpoint-bench" });
  // The project's run slots (lib/automations/queue/project-run-slots.ts): a job holds one while its run lasts.
  const slotsKey = `${options.keyPrefix}bull:automations:slots:${options.projectId}`;
  return {
    backlog: () => counts.backlog(),
    runsInProgress: () => counts.connection.zcount(slotsKey, Date.now(), "+inf"),
    async runsSince(sinceMs) {
      const logs = await pool.query<{
        started_at: string;
        duration_ms: string | null;
        outcome: string;
        attempt: string | null;
        retry_of: string | null;
        after_interruption: string | null;
        body: string | null;
      }>(
        `SELECT doc->>'startedAt' AS started_at, doc->>'durationMs' AS duration_ms, doc->>'outcome' AS outcome, doc->>'attempt' AS attempt,
                doc->>'retryOf' AS retry_of, doc->>'afterInterruption' AS after_interruption, doc->'request'->>'body' AS body
           FROM "flowpoint_records"."_executions"
          WHERE doc->>'automationId' = $1 AND (doc->>'startedAt') COLLATE "C" >= $2`,
        [options.automationId, iso(sinceMs)],
      );
      const runs: LoggedRun[] = [];
      for (const row of logs.rows) {
        const recordId = recordIdFromPreview(row.body);
        if (!recordId) continue;
        const startedAt = Date.parse(row.started_at);
        runs.push({
          recordId,
          startedAt,
          endedAt: startedAt + Number(row.duration_ms ?? 0),
          outcome: row.outcome,
          attempt: row.attempt === null ? null : Number(row.attempt),
          retryOf: row.retry_of,
          afterInterruption: row.after_interruption === "true",
        });
      }
      const copies = await pool.query<{ source_id: string; n: string }>(
        `SELECT doc->>'sourceId' AS source_id, count(*) AS n FROM "flowpoint_records"."${COPIES_SCHEMA}" WHERE (doc->>'createdAt') COLLATE "C" >= $1 GROUP BY 1`,
        [iso(sinceMs)],
      );
      return { runs, copiesPerRecord: new Map(copies.rows.map((row) => [row.source_id, Number(row.n)])) };
    },
    async close() {
      await counts.close();
      await pool.end();
    },
  };
}

/** The reference: its own BullMQ queue, one row per run in `bench_reference.runs`. */
export function referenceLedger(options: { redisUrl: string; prefix: string; queue: string; customerDatabaseUrl: string }): RunLedger {
  const counts = new QueueCounts(options.redisUrl, options.queue, options.prefix);
  const pool = new pg.Pool({ connectionString: options.customerDatabaseUrl, max: 2, application_name: "flowpoint-bench" });
  return {
    backlog: () => counts.backlog(),
    runsInProgress: async () => (await counts.backlog()).active,
    async runsSince(sinceMs) {
      const result = await pool.query<{ source_id: string; started_at: string }>(
        `SELECT doc->>'sourceId' AS source_id, doc->>'startedAt' AS started_at FROM ${REFERENCE_SCHEMA}.runs WHERE (doc->>'createdAt') COLLATE "C" >= $1`,
        [iso(sinceMs)],
      );
      return completedRuns(result.rows.map((row) => ({ recordId: row.source_id, startedAt: Date.parse(row.started_at) })));
    },
    async close() {
      await counts.close();
      await pool.end();
    },
  };
}
