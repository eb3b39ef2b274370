import type { ManagedProcess } from "../processes";
import type { RunLedger } from "./run-ledger";

/** A system the automation benchmark writes events to and reads their runs back from. */
export interface EventTarget {
  name: "app" | "reference" | "directus";
  baseUrl: string;
  path: string;
  headers: () => Record<string, string>;
  /** Processes whose CPU counts (server, then worker); the worker may be replaced by the kill check. */
  processes: () => ManagedProcess[];
  ledger: RunLedger;
}
