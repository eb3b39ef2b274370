/**
 * Fallback seeding for when the records API route is not available: creates the seed records with
 * the same record services the route uses, in a process of its own (it talks to the benchmark's
 * platform database through DATABASE_URL). Prints one JSON line {"authors":[ids],"tickets":[ids]}.
 *
 * Usage: tsx bench/seed-records-directly.ts <projectId>
 */
import { createRecord } from "@/lib/records-service/create-record";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { closePlatformDb } from "@/lib/platform-db/client";
import { authorSeed, SEED_AUTHORS, SEED_TICKETS, ticketSeed } from "./fixtures";

async function main(): Promise<void> {
  const projectId = process.argv[2];
  if (!projectId) throw new Error("usage: tsx bench/seed-records-directly.ts <projectId>");
  const schemas = await listSchemas({ projectId });
  const store = await getProjectRecordStore({ projectId });
  const create = async (name: string, input: Record<string, unknown>) => {
    const schema = schemas.find((candidate) => candidate.name === name);
    if (!schema) throw new Error(`schema ${name} is missing`);
    return (await createRecord({ store, schema, schemas, projectId, origin: "api", input })).id;
  };
  const authors: string[] = [];
  for (let index = 0; index < SEED_AUTHORS; index++) authors.push(await create("authors", authorSeed(index)));
  const tickets: string[] = [];
  for (let index = 0; index < SEED_TICKETS; index++) tickets.push(await create("tickets", ticketSeed(index, authors)));
  process.stdout.write(`${JSON.stringify({ authors, tickets })}\n`);
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
