import pg from "pg";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Counts the execution logs in the customer database. Both servers write one per call after the
 * response, one INSERT (one commit) each, so at peak they fall behind the answers: the benchmark
 * reports how far behind, how long they took to catch up and how many never arrived, and waits
 * for them before the next measurement so that one target's backlog never slows the other.
 */
export class ExecutionLogCounter {
  private constructor(private readonly client: pg.Client) {}

  static async connect(url: string): Promise<ExecutionLogCounter> {
    const client = new pg.Client({ connectionString: url, application_name: "flowpoint-bench" });
    await client.connect();
    return new ExecutionLogCounter(client);
  }

  async count(): Promise<number> {
    try {
      const result = await this.client.query<{ n: string }>(`SELECT count(*) AS n FROM "flowpoint_records"."_executions"`);
      return Number(result.rows[0]?.n ?? 0);
    } catch (error) {
      // Not created before the first log is written.
      if ((error as { code?: string }).code === "42P01") return 0;
      throw error;
    }
  }

  /**
   * Waits until the count has not changed for `quietMs`. Answers the count, when it last changed
   * (epoch ms; the start when it never did) and whether it settled before `maxMs`.
   */
  async waitUntilSettled(options: { quietMs?: number; maxMs?: number } = {}): Promise<{ count: number; lastChangeAt: number; settled: boolean }> {
    const quietMs = options.quietMs ?? 1_000;
    const deadline = Date.now() + (options.maxMs ?? 120_000);
    let last = await this.count();
    let lastChangeAt = Date.now();
    while (Date.now() < deadline) {
      await sleep(250);
      const now = await this.count();
      if (now !== last) {
        last = now;
        lastChangeAt = Date.now();
      } else if (Date.now() - lastChangeAt >= quietMs) {
        return { count: now, lastChangeAt, settled: true };
      }
    }
    return { count: last, lastChangeAt, settled: false };
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
