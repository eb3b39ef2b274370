import { AppError, issuesFromZod, type ErrorIssue } from "@/lib/errors";
import type { FlowStep } from "@/lib/flow/flow-definition";
import { secretPlacementErrorIssues } from "@/lib/flow/secret-references";
import { findFlowTemplateWarnings, type TemplateWarning } from "@/lib/flow/template-context/find-flow-template-warnings";
import { toTemplateContextSchemas } from "@/lib/flow/template-context/to-template-context-schemas";
import { validateProjectFlow } from "@/lib/flow/validate-project-flow";
import { FIELD_LIMITS } from "@/lib/schemas/field-limits";
import { findSlowPattern } from "@/lib/schemas/probe-pattern-speed";
import { endpointInputSchema, type EndpointInput } from "./endpoint-definition";

/** A definition that may be saved, with the placeholders that will not resolve (warnings never block a save). */
export type ValidatedEndpoint = EndpointInput & { steps: FlowStep[]; warnings: TemplateWarning[] };

/**
 * Everything checked when an endpoint is saved (422 with the path of each problem): the definition's
 * shape and cross-field rules, the flow (limits, JMESPath compiles, filter lines, and the schemas and
 * fields the steps name: lib/flow/validate-project-flow.ts), the auth schema of end-user endpoints,
 * and the typed input's string patterns, probed for slow matching as schema patterns are.
 * A definition that passes is answered with its placeholder warnings (lib/flow/template-context):
 * placeholders that will not resolve where they are written, which are saved all the same.
 */
export async function validateEndpointOrThrow(options: { projectId: string; input: unknown }): Promise<ValidatedEndpoint> {
  const parsed = endpointInputSchema.safeParse(options.input);
  const issues: ErrorIssue[] = parsed.success ? [] : issuesFromZod(parsed.error);
  const rawSteps = (options.input as { steps?: unknown } | null)?.steps ?? [];
  const flow = await validateProjectFlow({ projectId: options.projectId, steps: rawSteps, projectChecks: parsed.success });
  issues.push(...flow.issues.filter((issue) => !issues.some((known) => known.path === issue.path)));
  if (parsed.success) {
    // Secrets are read by outbound steps only; a response, input rule or header could echo one (the steps check their own).
    const { steps: _steps, ...rest } = parsed.data as Record<string, unknown>;
    issues.push(...secretPlacementErrorIssues(rest, ""));
  }
  if (parsed.success && flow.schemas && parsed.data.auth === "end_user" && parsed.data.authSchema && flow.schemas.get(parsed.data.authSchema)?.kind !== "auth") {
    issues.push({ path: "authSchema", message: `"${parsed.data.authSchema}" is not an auth schema of this project` });
  }
  if (parsed.success && issues.length === 0) issues.push(...(await slowInputPatternIssues(parsed.data.input)));
  if (issues.length > 0 || !parsed.success || !flow.steps) throw new AppError("validation_failed", "invalid endpoint", { issues });
  const warnings = findFlowTemplateWarnings({
    steps: flow.steps,
    response: parsed.data.response,
    schemas: toTemplateContextSchemas(flow.schemas ?? new Map()),
    owner: { kind: "endpoint", auth: parsed.data.auth, authSchema: parsed.data.authSchema, input: parsed.data.input },
  });
  return { ...parsed.data, steps: flow.steps, warnings };
}

/** The second ReDoS guard of lib/schemas (the static one ran in the schema): each input pattern probed with a time limit. */
async function slowInputPatternIssues(input: EndpointInput["input"]): Promise<ErrorIssue[]> {
  if (!input) return [];
  const patterns = (["query", "body"] as const).flatMap((location) =>
    Object.entries(input[location] ?? {}).flatMap(([name, field]) =>
      field.pattern === undefined ? [] : [{ path: `input.${location}.${name}.pattern`, pattern: field.pattern, maxLength: field.max ?? FIELD_LIMITS.stringMaxLength }],
    ),
  );
  const slow = await findSlowPattern(patterns);
  if (slow === null) return [];
  const path = patterns.find((item) => item.pattern === slow)?.path ?? "input";
  return [{ path, message: "takes too long to match some inputs (it can backtrack catastrophically): simplify it" }];
}
