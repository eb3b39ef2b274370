import { waitUntil } from "@/lib/http/after-response";
import { log } from "@/lib/log";
import type { FindQuery, RecordStore } from "@/lib/records/record-store";
import type { SchemaDefinition } from "@/lib/schemas/schema-definition";
import { searchableFields } from "./parse-list-query";

/**
 * A collection's search index is built the first time it is searched, not when its schema is
 * saved: the trigram index's upkeep is paid by every insert (a fifth of PostgreSQL's CPU per
 * automation event in bench/README.md, 2026-12-07), and collections written all the time (events,
 * submissions, logs) are rarely searched. The search that asks first, and those that come while
 * the index is built (CONCURRENTLY on PostgreSQL), read the filtered records, as on MongoDB.
 */
const BUILD_TIMEOUT_MS = 15 * 60_000;
/** A build that failed (the database away, a timeout) is tried again by a search this long after. */
const RETRY_AFTER_FAILURE_MS = 60_000;
const MAX_KNOWN_PER_STORE = 10_000;

/** Per store: the collections (with their field list) this process built or is building an index for; a number is when a build failed. */
const knownByStore = new WeakMap<RecordStore, Map<string, "asked" | number>>();

export function indexSearchOnFirstUse(store: RecordStore, schema: SchemaDefinition, search: FindQuery["search"]): void {
  if (!search) return;
  const fields = searchableFields(schema);
  // A query step may search a field list of its own, which the schema's index does not serve.
  if (fields.length === 0 || fields.join("\u0000") !== search.fields.join("\u0000")) return;
  let known = knownByStore.get(store);
  if (!known) knownByStore.set(store, (known = new Map()));
  const key = `${schema.name}\u0000${fields.join("\u0000")}`;
  const state = known.get(key);
  if (state === "asked" || (typeof state === "number" && Date.now() - state < RETRY_AFTER_FAILURE_MS)) return;
  if (known.size >= MAX_KNOWN_PER_STORE) known.clear();
  known.set(key, "asked");
  const collection = schema.name;
  waitUntil(
    store.ensureSearchIndex(collection, fields, { timeoutMs: BUILD_TIMEOUT_MS }).catch((error: unknown) => {
      known.set(key, Date.now());
      log.error("could not build a search index", { collection, error: error instanceof Error ? error.message : String(error) });
    }),
  );
}
