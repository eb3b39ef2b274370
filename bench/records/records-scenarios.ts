import { SCENARIOS } from "../scenarios";
import { ownerCount, ownerName, SELECTIVE_LIMIT, UNSELECTIVE_LIMIT, type RecordsEndpointKey } from "./records-fixtures";

/**
 * The records benchmark's scenarios: the invocation benchmark's four (against its same-work
 * reference too) and five that read the grown collection, each measured against the floor.
 */

export interface RecordsScenario {
  id: number;
  name: string;
  /** A custom endpoint (fn/<slug>) or the records API (GET /records/tickets). */
  via: "endpoint" | "records API";
  /** The endpoint called (via endpoint only). */
  endpoint: RecordsEndpointKey | null;
  /** The records API's query string (via records API only); `{owner}` is replaced per request. */
  recordsQuery: string | null;
  method: "GET" | "POST";
  body: string | null;
  expectedStatus: number;
  /** The query string of an endpoint call; `{owner}` is replaced per request. */
  endpointQuery: string | null;
  /** Measured against bench/reference/server.ts too (the same work by hand). */
  hasReference: boolean;
  /** Reads records per call: judged by the scale targets (1M vs 1,000 records). */
  readsRecords: boolean;
  /** The simplest read: judged against the floor. */
  simplestRead: boolean;
}

const base = {
  body: null,
  method: "GET",
  expectedStatus: 200,
  hasReference: false,
  readsRecords: true,
  simplestRead: false,
  endpointQuery: null,
  recordsQuery: null,
  endpoint: null,
} as const;

export const RECORDS_SCENARIOS: readonly RecordsScenario[] = [
  ...SCENARIOS.map((scenario) => ({
    ...base,
    id: scenario.id,
    name: scenario.name,
    via: "endpoint" as const,
    endpoint: scenario.endpoint,
    method: scenario.method,
    body: scenario.body,
    expectedStatus: scenario.expectedStatus,
    hasReference: true,
    readsRecords: scenario.endpoint === "uncached",
  })),
  { ...base, id: 5, name: `owner = O (≈100 matches), limit ${SELECTIVE_LIMIT} · query step`, via: "endpoint", endpoint: "byOwner", endpointQuery: "owner={owner}" },
  {
    ...base,
    id: 6,
    name: `owner = O (≈100 matches), perPage ${SELECTIVE_LIMIT} · records API`,
    via: "records API",
    recordsQuery: `filter%5Bowner%5D={owner}&perPage=${SELECTIVE_LIMIT}`,
  },
  { ...base, id: 7, name: `status = open (⅔), sort -dueAt, limit ${UNSELECTIVE_LIMIT} · query step`, via: "endpoint", endpoint: "openByDue" },
  {
    ...base,
    id: 8,
    name: `status = open (⅔), sort -dueAt, perPage ${UNSELECTIVE_LIMIT} · records API`,
    via: "records API",
    recordsQuery: `filter%5Bstatus%5D=open&sort=-dueAt&perPage=${UNSELECTIVE_LIMIT}`,
  },
  { ...base, id: 9, name: "simplest read: 40 open of 60 · query step", via: "endpoint", endpoint: "inboxOpen", simplestRead: true },
];

/** The owners the selective scenarios rotate over, one per request: every owner in turn. */
export function ownerRotation(tickets: number): () => string {
  const owners = ownerCount(tickets);
  let next = 0;
  return () => {
    const owner = ownerName(next);
    next = (next + 1) % owners;
    return owner;
  };
}
