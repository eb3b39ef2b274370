import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { newId } from "@/lib/ids";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { updateProject } from "@/lib/projects/update-project";
import { qualifiedTable } from "@/lib/records/postgres/table-names";
import type { RecordStore } from "@/lib/records/record-store";
import { createScratchDatabase, type ScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { createSchema } from "@/lib/schemas/create-schema";
import { createProjectFixture } from "@/test/fixtures";
import { waitForAutomationRuns } from "@/test/support/automation-runs";
import { createAutomation } from "./create-automation";
import { closeAutomationQueue } from "./queue/get-automation-queue";
import { OUTBOX_COLLECTION } from "./record-event-outbox";
import { sweepProjectOutbox } from "./sweep-automation-outboxes";

// One project's part of the minute sweep, on a PostgreSQL server run as this machine's is
// (autovacuum off): what a dead process left in the outbox is run, and the outbox is vacuumed.
// The whole sweep walks every project of the platform database, which the test files share.

afterAll(async () => {
  await closeAutomationQueue();
  await closePlatformDb();
});

if (!process.env.DATABASE_URL) {
  describe("sweeping a project's automation outbox — skipped: DATABASE_URL is not set", () => {
    it.skip("runs against a real PostgreSQL server when DATABASE_URL is set", () => undefined);
  });
} else {
  describe("sweeping a project's automation outbox", () => {
    let database: ScratchDatabase;
    let client: pg.Client;
    let projectId: string;
    let store: RecordStore;

    beforeAll(async () => {
      database = await createScratchDatabase(process.env.DATABASE_URL!, "fp_outbox_sweep");
      client = new pg.Client({ connectionString: database.url });
      await client.connect();
      ({ projectId } = await createProjectFixture("Outbox sweep"));
      await updateProject({ projectId, input: { database: { kind: "postgres", url: database.url } } });
      store = await getProjectRecordStore({ projectId });
      await createSchema({ projectId, store, definition: { name: "notes", kind: "collection", fields: [{ name: "text", type: "string" }] } });
    });

    afterAll(async () => {
      await store?.close();
      await client?.end();
      await database?.drop();
    });

    async function outboxVacuums(): Promise<number> {
      const result = await client.query<{ vacuums: string }>("SELECT vacuum_count AS vacuums FROM pg_stat_user_tables WHERE relid = to_regclass($1)", [
        qualifiedTable(OUTBOX_COLLECTION),
      ]);
      return Number(result.rows[0]?.vacuums ?? 0);
    }

    it("runs the event a dead process left in the outbox, empties it and vacuums it", async () => {
      const automation = await createAutomation({
        projectId,
        input: {
          name: "Echo notes",
          trigger: { type: "record", schema: "notes", events: ["create"] },
          steps: [{ type: "transform", name: "text", expression: "trigger.record.text" }],
        },
      });
      // A write whose process died before queueing its event: the record and its entry, nothing queued.
      await store.insert("notes", { text: "left behind" }, { outbox: { collection: OUTBOX_COLLECTION, id: newId("event"), event: { type: "create", schema: "notes" } } });
      // Entries of events queued long ago, deleted: the space the vacuum gives back.
      const queued = await store.insertMany(
        OUTBOX_COLLECTION,
        Array.from({ length: 50 }, () => ({ event: { type: "create", schema: "notes" }, record: null, previous: null })),
      );
      await store.deleteMany(OUTBOX_COLLECTION, [{ field: "id", op: "in", value: queued.map((entry) => entry.id) }]);
      // The drain leaves entries younger than a few seconds to the process that may still be queueing them.
      await client.query(`UPDATE ${qualifiedTable(OUTBOX_COLLECTION)} SET doc = jsonb_set(doc, '{createdAt}', to_jsonb($1::text))`, [new Date(Date.now() - 60_000).toISOString()]);
      const vacuumsBefore = await outboxVacuums();

      await sweepProjectOutbox(projectId);

      expect(await store.count(OUTBOX_COLLECTION)).toBe(0);
      expect(await outboxVacuums()).toBe(vacuumsBefore + 1);
      const [run] = await waitForAutomationRuns(projectId, automation.id, 1);
      expect(run).toMatchObject({ outcome: "completed", trigger: "record" });
      expect(run!.steps[0]?.outputPreview).toBe(JSON.stringify("left behind"));
    });

    it("never throws for a project whose database does not answer: it logs and leaves the next sweep to try", async () => {
      const { projectId: unreachable } = await createProjectFixture("Outbox sweep, database down");
      const scratch = await createScratchDatabase(process.env.DATABASE_URL!, "fp_outbox_sweep_down");
      await updateProject({ projectId: unreachable, input: { database: { kind: "postgres", url: scratch.url } } });
      const unreachableStore = await getProjectRecordStore({ projectId: unreachable });
      await createSchema({ projectId: unreachable, store: unreachableStore, definition: { name: "notes", kind: "collection", fields: [{ name: "text", type: "string" }] } });
      await createAutomation({
        projectId: unreachable,
        input: { name: "Echo", trigger: { type: "record", schema: "notes", events: ["create"] }, steps: [{ type: "transform", name: "text", expression: "trigger.record.text" }] },
      });
      await unreachableStore.close();
      await scratch.drop();
      const warnings = vi.spyOn(log, "warn");
      try {
        await expect(sweepProjectOutbox(unreachable)).resolves.toBeUndefined();
        expect(warnings.mock.calls.map(([message]) => message)).toEqual(["automation outbox could not be drained", "automation outbox space could not be reclaimed"]);
      } finally {
        warnings.mockRestore();
      }
    });
  });
}
