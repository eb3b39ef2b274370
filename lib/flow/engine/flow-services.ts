/**
 * What steps need from the outside world, injected by whoever runs the flow (custom endpoints,
 * automations, test runs). The engine knows nothing of HTTP requests, databases or mail servers;
 * each host wires the real implementations:
 *
 * - `records`: the records service over the project's customer database. Writes made through it
 *   must not emit record events (no chain reactions).
 * - `fetch`: `safeFetch` from `lib/outbound/safe-fetch.ts` (egress-checked, no redirects). Its
 *   signature fits as is.
 * - `sendMail` and `emailTemplates`: the project's mail transport and saved templates (`lib/mail/`).
 *
 * Every part is optional so that a host that cannot offer one (a preview that must not write, say)
 * still runs the other steps; a step whose service is absent fails with a clear error.
 */
export interface FlowServices {
  records?: FlowRecordsService;
  fetch?: FlowFetch;
  sendMail?: FlowSendMail;
  emailTemplates?: FlowEmailTemplates;
  /** The project's secrets, read only by the outbound steps (http, webhook, email) at the moment they call out. */
  secrets?: FlowSecrets;
  /**
   * Receives work that outlives the step (webhook deliveries) so the host can keep the process
   * alive for it (`waitUntil`). The promise never rejects.
   */
  onBackgroundTask?(task: Promise<void>): void;
  /** Told when such work fails (a webhook delivery that errored or got a non-2xx reply). */
  onBackgroundFailure?(failure: BackgroundFailure): void;
}

/** An equality condition; `value` is a literal, never an operator (`{"$ne": null}` is a value). */
export interface FlowFilter {
  field: string;
  value: unknown;
}

export interface FlowSort {
  field: string;
  direction: "asc" | "desc";
}

export type FlowRecord = Record<string, unknown>;

export interface FlowRecordsService {
  /** Records of `schema` matching every filter; related documents under `expand.<field>`. */
  query(options: { schema: string; where: FlowFilter[]; limit: number; sort: FlowSort | null; expand: string[]; signal: AbortSignal }): Promise<FlowRecord[]>;
  /** Validates (required, types, unique, relations) and stores a record; answers it. */
  create(options: { schema: string; values: Record<string, unknown>; signal: AbortSignal }): Promise<FlowRecord>;
  /** Updates the first record matching every filter: `{...record, matched: true}` or `{matched: false}`. */
  update(options: { schema: string; where: FlowFilter[]; values: Record<string, unknown>; signal: AbortSignal }): Promise<FlowRecord & { matched: boolean }>;
}

export interface FlowFetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Absent for work that outlives the run (webhooks); `timeoutMs` still bounds it. */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface FlowFetchResponse {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  /** Parsed JSON for JSON replies, else text. */
  body: unknown;
  /** True when the reply was longer than `maxBytes` and was cut. */
  truncated: boolean;
}

/** The signature of `safeFetch` (lib/outbound/safe-fetch.ts). */
export type FlowFetch = (url: string, init: FlowFetchInit) => Promise<FlowFetchResponse>;

export interface FlowMailMessage {
  to: string[];
  subject: string;
  html?: string;
  text?: string;
}

export type FlowSendMail = (message: FlowMailMessage, options: { signal: AbortSignal }) => Promise<unknown>;

/** A saved email template: its parts are templates rendered against the run context. */
export interface FlowEmailTemplate {
  subject: string;
  html?: string | null;
  text?: string | null;
}

export interface FlowEmailTemplates {
  /** The project's saved template by name, or null when there is none. */
  get(name: string, options: { signal: AbortSignal }): Promise<FlowEmailTemplate | null>;
}

export interface FlowSecrets {
  /**
   * The decrypted values of the named secrets for one outbound call; names the project does not
   * have are left out. The engine records every value it hands out and masks it in the run's
   * outputs, errors and logs.
   */
  resolve(names: readonly string[], options: { signal?: AbortSignal }): Promise<Record<string, string>>;
}

export interface BackgroundFailure {
  stepIndex: number;
  stepName: string | null;
  type: "webhook";
  /** A message fit for the execution log. */
  error: string;
  /** The reply status when the delivery got one. */
  status?: number;
}
