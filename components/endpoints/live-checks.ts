import { endpointInputSchema } from "@/lib/endpoints/endpoint-definition";
import type { ZodType } from "zod";
import { issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { flowStepSchema } from "@/lib/flow/flow-definition";
import { toEndpointInput, toStepInput, type EndpointDraft, type StepDraft } from "./endpoint-draft";

/**
 * The checks the editors run as the owner types, with the same zod schemas and outbound address
 * policy the server uses (all browser-safe). Save-time validation stays the authority: these only
 * bring its verdict forward. A field left empty is not reported while typing (a new step's URL,
 * a new endpoint's name): that is for Save to say. The editors load this module after their first
 * paint (loadLiveChecks in live-hints.ts): with it come zod's flow schemas and the JMESPath compiler.
 */

export { outboundHostWarning, slugSuggestion, suggestSlug, withLiveIssues } from "./live-hints";

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
