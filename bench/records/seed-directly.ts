/**
 * Development fallback of the records benchmark (`--seed-directly`) for a build without the import
 * route: writes the authors, the inbox and N tickets with the project's record store
 * (RecordStore.insertMany, 1,000 a statement), in a process of its own that talks to the benchmark's
 * platform database through DATABASE_URL. No validation: the figures of such a run say nothing about
 * the import. Prints one JSON line {"authors", "inbox", "tickets", "seconds"}.
 *
 * Usage: tsx bench/records/seed-directly.ts <projectId> <tickets>
 */
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { closePlatformDb } from "@/lib/platform-db/client";
import { authorRecord, inboxRecord, INBOX_RECORDS, RECORDS_AUTHORS, ticketRecord } from "./records-fixtures";

const BATCH = 1_000;

async function main(): Promise<void> {
  const [projectId, ticketsText] = process.argv.slice(2);
  const tickets = Number(ticketsText);
  if (!projectId || !Number.isInteger(tickets) || tickets < 1) throw new Error("usage: tsx bench/records/seed-directly.ts <projectId> <tickets>");
  const store = await getProjectRecordStore({ projectId });
  const started = performance.now();
  const authors = await store.insertMany(
    "authors",
    Array.from({ length: RECORDS_AUTHORS }, (_, index) => authorRecord(index)),
  );
  const authorIds = authors.map((author) => author.id);
  await store.insertMany(
    "inbox",
    Array.from({ length: INBOX_RECORDS }, (_, index) => inboxRecord(index)),
  );
  for (let from = 0; from < tickets; from += BATCH) {
    const to = Math.min(tickets, from + BATCH);
    await store.insertMany(
      "tickets",
      Array.from({ length: to - from }, (_, offset) => ticketRecord(from + offset, tickets, authorIds)),
      { timeoutMs: 60_000 },
    );
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ authors: authorIds.length, inbox: INBOX_RECORDS, tickets, seconds })}\n`);
}

main()
  .then(async () => {
    await closeAllRecordStores();
    await closePlatformDb();
  })
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
