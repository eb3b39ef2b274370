import { endpointInputSchema, SLUG_PATTERN } from "@/lib/endpoints/endpoint-definition";
import type { ZodType } from "zod";
import { issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { hasPlaceholders } from "@/lib/flow/engine/render-template";
import { flowStepSchema } from "@/lib/flow/flow-definition";
import { classifyAddress, describeAddressKind, parseHost } from "@/lib/outbound/address-policy";
import { toEndpointInput, toStepInput, type EndpointDraft, type StepDraft } from "./endpoint-draft";

/**
 * The checks the editors run as the owner types, with the same zod schemas and outbound address
 * policy the server uses (all browser-safe). Save-time validation stays the authority: these only
 * bring its verdict forward. A field left empty is not reported while typing (a new step's URL,
 * a new endpoint's name): that is for Save to say.
 */

const SLUG_MAX = 64;
const ALLOWLIST_NOTE = " (private, loopback and link-local hosts are blocked unless the server's OUTBOUND_ALLOWED_HOSTS lists them).";

/** The slug a name or a mistyped slug most likely means: lowercase ASCII letters, digits and single dashes, ≤ 64. */
export function suggestSlug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
}

/** A suggestion for a slug that breaks the rules, or null when it is fine, empty or nothing better exists. */
export function slugSuggestion(slug: string): string | null {
  const trimmed = slug.trim();
  if (trimmed === "" || SLUG_PATTERN.test(trimmed)) return null;
  const suggestion = suggestSlug(trimmed);
  return suggestion === "" || suggestion === trimmed ? null : suggestion;
}

function isBlank(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function valueAt(input: unknown, segments: readonly string[]): unknown {
  let value = input;
  for (const segment of segments) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * Issues of `input` except those about a field still empty. A field is named by the first
 * `fieldDepth` segments of a path (`name`; `trigger.cron` at depth 2): deeper segments are items
 * or map keys (`allowedOrigins.1`, `response.headers.X Bad`), judged whatever their value.
 */
function issuesOnFilledFields(issues: readonly ErrorIssue[], input: Record<string, unknown>, fieldDepth = 1): ErrorIssue[] {
  return issues.filter((issue) => {
    const segments = issue.path === "" ? [] : issue.path.split(".").slice(0, fieldDepth);
    return segments.every((_, index) => !isBlank(valueAt(input, segments.slice(0, index + 1))));
  });
}

/**
 * A definition's own fields against the API's schema as the owner types; its steps are checked one
 * by one (liveStepIssues), so they are left out here. `fieldDepth` as for issuesOnFilledFields.
 */
export function liveDefinitionIssues(schema: ZodType, input: Record<string, unknown>, fieldDepth = 1): ErrorIssue[] {
  const withoutSteps = { ...input, steps: [] };
  const parsed = schema.safeParse(withoutSteps);
  return parsed.success ? [] : issuesOnFilledFields(issuesFromZod(parsed.error), withoutSteps, fieldDepth);
}

/** One step's settings against its kind's schema (and the common step fields); paths relative to the step. */
export function liveStepIssues(step: StepDraft): ErrorIssue[] {
  const input = toStepInput(step);
  const parsed = flowStepSchema.safeParse(input);
  return parsed.success ? [] : issuesOnFilledFields(issuesFromZod(parsed.error), input);
}

/** The endpoint's own fields (route, origins, cache, response) against the API's schema; steps are checked one by one. */
export function liveEndpointIssues(draft: EndpointDraft): ErrorIssue[] {
  return liveDefinitionIssues(endpointInputSchema, toEndpointInput(draft));
}

/** Whether a flow's own issues or any step's break a rule the editor checks as it is typed: a save would be refused. */
export function hasLiveFlowIssues(ownIssues: readonly ErrorIssue[], steps: readonly StepDraft[]): boolean {
  return ownIssues.length > 0 || steps.some((step) => liveStepIssues(step).length > 0);
}

/** Whether the endpoint draft breaks a rule the editor can check as it is typed: a save would be refused. */
export function hasLiveIssues(draft: EndpointDraft): boolean {
  return hasLiveFlowIssues(liveEndpointIssues(draft), draft.steps);
}

/**
 * Issues to show: the server's from the last save or test run, then the live ones at paths the
 * server said nothing about (its message is the fuller one, as it knows the project).
 */
export function withLiveIssues(server: readonly ErrorIssue[], live: readonly ErrorIssue[]): ErrorIssue[] {
  const covered = new Set(server.map((issue) => issue.path));
  return [...server, ...live.filter((issue) => !covered.has(issue.path))];
}

/**
 * Why an outbound URL will be refused when it runs, or null: its host is `localhost` or an IP literal
 * (any spelling a browser accepts) that is not public. Names are only resolved at run time, and a
 * host made of placeholders is unknown until then, so neither is judged here.
 */
export function outboundHostWarning(urlTemplate: string): string | null {
  const text = urlTemplate.trim();
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(text)?.[1];
  if (authority === undefined || hasPlaceholders(authority)) return null;
  let hostname: string;
  try {
    hostname = new URL(text.replace(/\{\{[^}]*\}\}/g, "x")).hostname;
  } catch {
    return null;
  }
  const host = parseHost(hostname);
  if (host.kind === "name") {
    if (host.name === "localhost" || host.name.endsWith(".localhost") || host.name === "localhost.") {
      return `${host.name} is a loopback host: the step's request will be refused when it runs${ALLOWLIST_NOTE}`;
    }
    return null;
  }
  if (host.kind !== "ip") return null;
  const classification = classifyAddress(host.address);
  if (classification.kind === "public") return null;
  return `${host.address} is ${describeAddressKind(classification)}: the step's request will be refused when it runs${ALLOWLIST_NOTE}`;
}
