import { ACCEPTED_INTAKE_BODY, REJECTED_INTAKE_BODY, type EndpointKey } from "./fixtures";

export interface Scenario {
  id: 1 | 2 | 3 | 4;
  name: string;
  endpoint: EndpointKey;
  method: "GET" | "POST";
  body: string | null;
  /** Every answer must have this status; anything else is counted as an error (a 429 means the IP pool was too small). */
  expectedStatus: number;
  /** Targets of the issue: the app's p50 within this many ms of the reference's (only where set). */
  p50BudgetMs: number | null;
}

export const SCENARIOS: readonly Scenario[] = [
  { id: 1, name: "cached public GET", endpoint: "cached", method: "GET", body: null, expectedStatus: 200, p50BudgetMs: 1 },
  { id: 2, name: "uncached GET: 50 records + relation, transform", endpoint: "uncached", method: "GET", body: null, expectedStatus: 200, p50BudgetMs: null },
  { id: 3, name: "POST intake, condition fails (422)", endpoint: "intake", method: "POST", body: REJECTED_INTAKE_BODY, expectedStatus: 422, p50BudgetMs: 1 },
  { id: 4, name: "POST intake, creates a record (201)", endpoint: "intake", method: "POST", body: ACCEPTED_INTAKE_BODY, expectedStatus: 201, p50BudgetMs: null },
];

/** Each scenario must reach at least this share of its reference's requests/s. */
export const MIN_THROUGHPUT_RATIO = 0.5;
/** Resident memory must stay within ±this share of its post-warm-up value during the soak. */
export const MAX_RSS_DRIFT = 0.1;
