// Queue choice for automations (issue 10): the same work on BullMQ (Redis) and pg-boss (PostgreSQL):
// N jobs queued one per "write" at an offered rate, a worker inserting one row per job (BullMQ:
// concurrency 20; pg-boss: batches of BATCH, LOCAL at once); reports the completed rate, the delay
// from queueing to the start of the job, and the Node CPU per job.
//
// pg-boss is not a dependency of the app (its current major needs Node 22), so this runs in a
// scratch directory:
//   mkdir /tmp/qbench && cd /tmp/qbench && npm init -y && npm i pg-boss@10.4.2 bullmq@6.7.0 ioredis@5.11.1 pg@8.23.1
//   cp <repo>/bench/queue-choice/compare-queues.mjs . && psql -c 'create database flowpoint_h_qbench'
//   N=1500 RATE=600 node compare-queues.mjs
import { performance } from "node:perf_hooks";
import pg from "pg";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import PgBoss from "pg-boss";

const N = Number(process.env.N ?? 3000);
const RATE = Number(process.env.RATE ?? 600); // jobs per second offered
const DB = process.env.DB ?? "postgres://postgres@127.0.0.1:5432/flowpoint_h_qbench";
const pool = new pg.Pool({ connectionString: DB, max: 20 });
await pool.query("create table if not exists done (id text primary key, queued bigint, started bigint)");

function pct(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function offer(add) {
  const start = performance.now();
  for (let i = 0; i < N; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await add(i);
  }
}

async function run(name, setup) {
  await pool.query("truncate done");
  const delays = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let completed = 0;
  let finish;
  const allDone = new Promise((r) => (finish = r));
  const handle = async (data) => {
    const started = Date.now();
    delays.push(started - data.queued);
    await pool.query("insert into done (id, queued, started) values ($1, $2, $3)", [data.id, data.queued, started]);
    if (++completed === N) finish();
  };
  const { add, close } = await setup(handle);
  await offer((i) => add({ id: `${name}-${i}-${Date.now()}`, queued: Date.now() }));
  const offeredFor = (performance.now() - t0) / 1000;
  await allDone;
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await close();
  const rows = (await pool.query("select count(*)::int as n from done")).rows[0].n;
  console.log(
    JSON.stringify({
      queue: name,
      jobs: N,
      offeredPerSecond: RATE,
      offeredSeconds: +offeredFor.toFixed(2),
      completedPerSecond: +(N / seconds).toFixed(0),
      delayMs: { p50: pct(delays, 50), p95: pct(delays, 95), p99: pct(delays, 99) },
      nodeCpuMsPerJob: +((cpu.user + cpu.system) / 1000 / N).toFixed(3),
      rowsWritten: rows,
    }),
  );
}

await run("bullmq", async (handle) => {
  const prefix = `qbench-${Date.now()}`;
  const producer = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
  const queue = new Queue("q", { connection: producer, prefix });
  const worker = new Worker("q", (job) => handle(job.data), { connection: new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: null }), prefix, concurrency: 20 });
  return {
    add: (data) => queue.add("j", data, { jobId: data.id, removeOnComplete: { age: 3600 } }),
    close: async () => {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      producer.disconnect();
    },
  };
});

await run("pg-boss", async (handle) => {
  const boss = new PgBoss({ connectionString: DB, schema: "qbench_boss" });
  boss.on("error", () => undefined);
  await boss.start();
  await boss.createQueue("q");
  await boss.work("q", { batchSize: Number(process.env.BATCH ?? 50), localConcurrency: Number(process.env.LOCAL ?? 4), pollingIntervalSeconds: 0.5 }, async (jobs) => {
    await Promise.all(jobs.map((job) => handle(job.data)));
  });
  return {
    add: (data) => boss.send("q", data, { singletonKey: data.id }),
    close: async () => {
      await boss.stop({ graceful: true, wait: true });
    },
  };
});

await pool.end();
