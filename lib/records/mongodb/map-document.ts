import type { Document } from "mongodb";
import { orderRecordKeys } from "../order-stored-records";
import type { StoredRecord } from "../record-store";

/** Our record as a MongoDB document: the id goes to `_id`. */
export function toMongoDocument(record: StoredRecord): Document {
  const { id, ...rest } = record;
  return { _id: id, ...rest };
}

/** A MongoDB document as our record: `_id` becomes `id` and is never exposed itself. */
export function fromMongoDocument(document: Document): StoredRecord {
  const { _id, ...rest } = document;
  return orderRecordKeys({ ...rest, id: typeof _id === "string" ? _id : String(_id) });
}

/**
 * The database named in a mongodb:// or mongodb+srv:// URL (the path after the hosts), or
 * undefined when there is none. Parsed by hand: multi-host URLs are not valid WHATWG URLs.
 */
export function databaseNameFromUrl(url: string): string | undefined {
  const afterScheme = url.slice(url.indexOf("://") + 3);
  const beforeQuery = afterScheme.split(/[?#]/)[0] ?? "";
  const hostsEnd = beforeQuery.indexOf("/", beforeQuery.lastIndexOf("@") + 1);
  if (hostsEnd === -1) return undefined;
  const name = decodeURIComponent(beforeQuery.slice(hostsEnd + 1));
  return name === "" ? undefined : name;
}
