import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { updateProject } from "@/lib/projects/update-project";
import { qualifiedTable } from "@/lib/records/postgres/table-names";
import type { RecordStore } from "@/lib/records/record-store";
import { createScratchDatabase, type ScratchDatabase } from "@/lib/records/testing/scratch-postgres";
import { createProjectFixture } from "@/test/fixtures";
import { OUTBOX_COLLECTION } from "../record-event-outbox";
import { reclaimOutboxSpace } from "./reclaim-outbox-space";

// The sweep's part against outbox bloat, on a PostgreSQL server run as this machine's is (autovacuum
// off): the outbox's deleted entries leave their space for new ones. The store's own test covers PGlite.

const ENTRIES = 400;

afterAll(closePlatformDb);

if (!process.env.DATABASE_URL) {
  describe("reclaiming the automation outbox's space — skipped: DATABASE_URL is not set", () => {
    it.skip("runs against a real PostgreSQL server when DATABASE_URL is set", () => undefined);
  });
} else {
  describe("reclaiming the automation outbox's space", () => {
    let database: ScratchDatabase;
    let client: pg.Client;
    let projectId: string;
    let store: RecordStore;

    beforeAll(async () => {
      database = await createScratchDatabase(process.env.DATABASE_URL!, "fp_outbox_space");
      client = new pg.Client({ connectionString: database.url });
      await client.connect();
      ({ projectId } = await createProjectFixture("Outbox space"));
      await updateProject({ projectId, input: { database: { kind: "postgres", url: database.url } } });
      store = await getProjectRecordStore({ projectId });
      // The outbox as on a server whose autovacuum is off (this machine's) or has not come round yet.
      const first = await store.insert(OUTBOX_COLLECTION, { event: { type: "create", schema: "notes" }, record: null, previous: null });
      await store.deleteMany(OUTBOX_COLLECTION, [{ field: "id", op: "eq", value: first.id }]);
      await client.query(`ALTER TABLE ${qualifiedTable(OUTBOX_COLLECTION)} SET (autovacuum_enabled = off)`);
    });

    afterAll(async () => {
      await store?.close();
      await client?.end();
      await database?.drop();
    });

    async function outboxBytes(): Promise<number> {
      const result = await client.query<{ bytes: string }>(`SELECT pg_relation_size('${qualifiedTable(OUTBOX_COLLECTION)}') AS bytes`);
      return Number(result.rows[0]!.bytes);
    }

    /** A burst of record events: their entries written, their runs queued, the entries deleted. */
    async function eventsPass(): Promise<void> {
      const entries = await store.insertMany(
        OUTBOX_COLLECTION,
        Array.from({ length: ENTRIES }, (_, n) => ({ event: { type: "create", schema: "notes" }, record: { id: `rec_${n}`, text: "y".repeat(300) }, previous: null })),
      );
      await store.deleteMany(OUTBOX_COLLECTION, [{ field: "id", op: "in", value: entries.map((entry) => entry.id) }]);
    }

    it("lets new entries reuse the space of deleted ones", async () => {
      await eventsPass();
      const afterFirstPass = await outboxBytes();
      await eventsPass();
      const unreclaimed = await outboxBytes();
      // Left alone, each pass adds its deleted entries' pages.
      expect(unreclaimed).toBeGreaterThan(afterFirstPass * 1.5);

      await reclaimOutboxSpace(projectId);
      await eventsPass();
      await eventsPass();
      expect(await outboxBytes()).toBeLessThanOrEqual(unreclaimed);
    });

    it("is harmless for a project whose outbox was never written", async () => {
      const { projectId: fresh } = await createProjectFixture("No outbox yet");
      // reclaimOutboxSpace never throws: a failure would only show as its warning.
      const warnings = vi.spyOn(log, "warn");
      try {
        await reclaimOutboxSpace(fresh);
        expect(warnings).not.toHaveBeenCalled();
      } finally {
        warnings.mockRestore();
      }
    });
  });
}
