import type { EndpointAuthMode, EndpointInput, EndpointMethod, ResponseContentType } from "@/lib/endpoints/endpoint-definition";
import type { ConditionOperator } from "@/lib/flow/steps/condition/catalog";
import { STEP_CATALOG, STEP_CATALOG_ENTRIES } from "@/lib/flow/steps/catalog";
import { STEP_KINDS, type StepKind } from "@/lib/flow/steps/step-kind";
import { toEndpointInputSpec, toInputFieldDrafts, type InputFieldDraft } from "./input-fields-draft";

/**
 * An endpoint as the editor holds it. Settings keep the text the inputs show (a limit being typed
 * is "1", then "10"); maps (headers, record values) are rows so a half-typed name can exist; the
 * conversion to the API's JSON happens once, in `toEndpointInput`, and the server validates it.
 */

export interface RowDraft {
  key: string;
  name: string;
  value: string;
  /** The saved value was JSON other than a string (an imported definition): it is parsed back when unchanged. */
  json: boolean;
}

export interface CheckDraft {
  key: string;
  left: string;
  operator: ConditionOperator;
  right: string;
}

export interface StepDraft {
  key: string;
  type: StepKind;
  /** Output name ("" = none). */
  name: string;
  enabled: boolean;
  continueOnError: boolean;
  /** The kind's own scalar settings, as text or lists of text; converted by its definition's `editor` rules. */
  settings: Record<string, string | string[]>;
  /** `headers` (http, webhook) or `values` (create, update). */
  rows: RowDraft[];
  /** Condition checks. */
  checks: CheckDraft[];
}

export interface EndpointDraft {
  name: string;
  method: EndpointMethod;
  slug: string;
  auth: EndpointAuthMode;
  authSchema: string;
  /** One origin per line. */
  allowedOrigins: string;
  group: string;
  cacheSeconds: number;
  enabled: boolean;
  steps: StepDraft[];
  response: { status: string; contentType: ResponseContentType; body: string; headers: RowDraft[] };
  /** The typed input's rows (input-fields-draft.ts); none = no checks. */
  input: InputFieldDraft[];
}

let counter = 0;
/**
 * A key unique within the page: drafts made on the server (passed as props) and in the browser
 * (steps added while editing) come from different counters, so their keys carry the side.
 */
export function newKey(prefix: string): string {
  counter += 1;
  return `${typeof window === "undefined" ? "s" : "c"}-${prefix}-${counter}`;
}

export function newRow(name = "", value = ""): RowDraft {
  return { key: newKey("row"), name, value, json: false };
}

function toRows(record: unknown): RowDraft[] {
  if (record === null || typeof record !== "object") return [];
  return Object.entries(record as Record<string, unknown>).map(([name, value]) =>
    typeof value === "string" ? newRow(name, value) : { key: newKey("row"), name, value: JSON.stringify(value), json: true },
  );
}

function fromRows(rows: readonly RowDraft[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name === "" && row.value === "") continue;
    if (row.json) {
      try {
        record[name] = JSON.parse(row.value) as unknown;
        continue;
      } catch {
        // Edited into text that is not JSON: it is a template now.
      }
    }
    record[name] = row.value;
  }
  return record;
}

function operandText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Kinds whose output is always null: they get no output name. */
export const KINDS_WITHOUT_OUTPUT: ReadonlySet<StepKind> = new Set(STEP_KINDS.filter((kind) => STEP_CATALOG_ENTRIES[kind].editor.noOutput));

/** A new step of a kind, with the registry's defaults. */
export function newStepDraft(type: StepKind, usedNames: readonly string[] = []): StepDraft {
  const draft = toStepDraft({ type, ...STEP_CATALOG[type].defaults });
  if (KINDS_WITHOUT_OUTPUT.has(type)) return draft;
  // A new step gets an output name so its result can be used at once ({{steps.query1}}).
  let index = 1;
  while (usedNames.includes(`${type}${index}`)) index += 1;
  draft.name = `${type}${index}`;
  return draft;
}

/** A saved step (API JSON) as the editor holds it. */
export function toStepDraft(step: unknown): StepDraft {
  const raw = (step ?? {}) as Record<string, unknown>;
  const type = (STEP_KINDS as readonly string[]).includes(String(raw.type)) ? (raw.type as StepKind) : "transform";
  const rules = STEP_CATALOG_ENTRIES[type].editor;
  const rowsKey = rules.rows ?? null;
  const settings: Record<string, string | string[]> = {};
  for (const key of Object.keys(STEP_CATALOG[type].defaults)) {
    if (key === rowsKey || (rules.checks && key === "checks")) continue;
    const value = raw[key];
    if (rules.lists?.includes(key)) settings[key] = Array.isArray(value) ? value.map(String) : [];
    else settings[key] = value === undefined || value === null ? "" : String(value);
  }
  return {
    key: newKey("step"),
    type,
    name: typeof raw.name === "string" ? raw.name : "",
    enabled: raw.enabled !== false,
    continueOnError: raw.continueOnError === true,
    settings,
    rows: rowsKey ? toRows(raw[rowsKey]) : [],
    checks: rules.checks ? toCheckDrafts(raw.checks) : [],
  };
}

/** Saved condition checks (a condition step's, an automation's record trigger's) as the editor holds them. */
export function toCheckDrafts(checks: unknown): CheckDraft[] {
  if (!Array.isArray(checks)) return [];
  return checks.map((check: Record<string, unknown>) => ({
    key: newKey("check"),
    left: operandText(check.left),
    operator: (check.operator as ConditionOperator) ?? "exists",
    right: operandText(check.right),
  }));
}

/** Checks as the API takes them: exists and not exists have no right operand. */
export function toCheckInputs(checks: readonly CheckDraft[]): Record<string, unknown>[] {
  return checks.map((check) => {
    const unary = check.operator === "exists" || check.operator === "not_exists";
    return unary ? { left: check.left, operator: check.operator } : { left: check.left, operator: check.operator, right: check.right };
  });
}

/** A step as the API takes it. */
export function toStepInput(draft: StepDraft): Record<string, unknown> {
  const step: Record<string, unknown> = { type: draft.type, name: draft.name.trim() || null, enabled: draft.enabled, continueOnError: draft.continueOnError };
  const rules = STEP_CATALOG_ENTRIES[draft.type].editor;
  const numbers = rules.numbers ?? {};
  for (const [key, value] of Object.entries(draft.settings)) {
    const numberRule = numbers[key];
    if (numberRule && typeof value === "string") {
      const trimmed = value.trim();
      if (trimmed === "") step[key] = numberRule === "nullable" ? null : undefined;
      else step[key] = Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
    } else {
      step[key] = value;
    }
  }
  // An empty sort, stop body or template means "none".
  for (const key of rules.emptyIsNull ?? []) if (step[key] === "") step[key] = null;
  if (rules.rows) step[rules.rows] = fromRows(draft.rows);
  if (rules.checks) step.checks = toCheckInputs(draft.checks);
  return step;
}

export function newEndpointDraft(): EndpointDraft {
  return {
    name: "",
    method: "GET",
    slug: "",
    auth: "public",
    authSchema: "",
    allowedOrigins: "",
    group: "",
    cacheSeconds: 0,
    enabled: true,
    steps: [],
    response: { status: "200", contentType: "application/json", body: "", headers: [] },
    input: [],
  };
}

export function toEndpointDraft(endpoint: EndpointInput): EndpointDraft {
  return {
    name: endpoint.name,
    method: endpoint.method,
    slug: endpoint.slug,
    auth: endpoint.auth,
    authSchema: endpoint.authSchema ?? "",
    allowedOrigins: endpoint.allowedOrigins.join("\n"),
    group: endpoint.group ?? "",
    cacheSeconds: endpoint.cacheSeconds,
    enabled: endpoint.enabled,
    steps: endpoint.steps.map(toStepDraft),
    response: {
      status: String(endpoint.response.status),
      contentType: endpoint.response.contentType,
      body: endpoint.response.body,
      headers: toRows(endpoint.response.headers),
    },
    input: toInputFieldDrafts(endpoint.input),
  };
}

/** True when the endpoint may cache: public GET (the service refuses a cache duration otherwise). */
export function canCache(draft: Pick<EndpointDraft, "auth" | "method">): boolean {
  return draft.auth === "public" && draft.method === "GET";
}

/** The definition as the management API takes it. */
export function toEndpointInput(draft: EndpointDraft): Record<string, unknown> {
  const status = Number(draft.response.status.trim());
  return {
    name: draft.name,
    method: draft.method,
    slug: draft.slug.trim(),
    auth: draft.auth,
    authSchema: draft.auth === "end_user" ? draft.authSchema || null : null,
    allowedOrigins: draft.allowedOrigins
      .split("\n")
      .map((origin) => origin.trim())
      .filter(Boolean),
    group: draft.group.trim() || null,
    cacheSeconds: canCache(draft) ? draft.cacheSeconds : 0,
    enabled: draft.enabled,
    steps: draft.steps.map(toStepInput),
    response: {
      status: draft.response.status.trim() === "" ? 200 : Number.isFinite(status) ? status : draft.response.status,
      contentType: draft.response.contentType,
      body: draft.response.body,
      headers: fromRows(draft.response.headers),
    },
    input: toEndpointInputSpec(draft.input ?? []),
  };
}
