import { AppError, issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { parseTemplate } from "@/lib/flow/engine/render-template";
import type { FlowStep } from "@/lib/flow/flow-definition";
import { secretPlacementErrorIssues } from "@/lib/flow/secret-references";
import { findFlowTemplateWarnings, type TemplateWarning } from "@/lib/flow/template-context/find-flow-template-warnings";
import { toTemplateContextSchemas } from "@/lib/flow/template-context/to-template-context-schemas";
import { isRecordSchema, loadProjectSchemas, validateProjectFlow, type ProjectSchemas } from "@/lib/flow/validate-project-flow";
import { automationInputSchema, type AutomationInput, type AutomationTrigger, type RecordTrigger } from "./automation-definition";
import { scheduleIssues } from "./schedule-rules";

/** A definition that may be saved, with the placeholders of its steps that will not resolve (warnings never block a save). */
export type ValidatedAutomationInput = AutomationInput & { steps: FlowStep[]; warnings: TemplateWarning[] };

const PLACEHOLDER_TEXT = /\{\{[^{}]*\}\}/g;

/**
 * A record trigger's condition is evaluated against the event before any run exists, so its
 * templates read `trigger.*` only; a placeholder that does not parse would be compared as literal
 * text and never match, so it is refused rather than silently never firing.
 */
function conditionTemplateProblem(template: string): string | null {
  if (!template.includes("{{") && !template.includes("}}")) return null;
  for (const [text] of template.matchAll(PLACEHOLDER_TEXT)) {
    const [part] = parseTemplate(text).parts;
    if (part === undefined || typeof part === "string") return `${text} is not a valid placeholder (write {{trigger.record.field}})`;
    // {{secrets.*}} is refused by the secret placement rule with its own message.
    if (part.root !== "trigger" && part.root !== "secrets") return `${text} cannot be read here: a trigger condition reads only {{trigger.*}}`;
  }
  const rest = template.replace(PLACEHOLDER_TEXT, "");
  if (rest.includes("{{") || rest.includes("}}")) return "has unbalanced {{ }} braces";
  return null;
}

function recordConditionIssues(trigger: RecordTrigger): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  trigger.condition?.checks.forEach((check, index) => {
    for (const side of ["left", "right"] as const) {
      const operand = check[side];
      const problem = typeof operand === "string" ? conditionTemplateProblem(operand) : null;
      if (problem) issues.push({ path: `trigger.condition.checks.${index}.${side}`, message: problem });
    }
  });
  return issues;
}

/** The trigger checks that need nothing but the trigger. */
function triggerIssues(trigger: AutomationTrigger): ErrorIssue[] {
  if (trigger.type === "schedule") return scheduleIssues(trigger).map((issue) => ({ ...issue, path: `trigger.${issue.path}` }));
  if (trigger.type === "record") return recordConditionIssues(trigger);
  return [];
}

function recordSchemaIssues(trigger: AutomationTrigger, schemas: ProjectSchemas): ErrorIssue[] {
  if (trigger.type !== "record" || isRecordSchema(schemas, trigger.schema)) return [];
  const kind = schemas.get(trigger.schema)?.kind;
  const message =
    kind === undefined ? `the schema "${trigger.schema}" does not exist` : `"${trigger.schema}" is a ${kind} schema; record triggers watch collection and auth schemas`;
  return [{ path: "trigger.schema", message }];
}

/**
 * Everything checked when an automation is saved (422 `invalid automation` with the path of each
 * problem): the definition's shape, the flow (limits, JMESPath, filter lines, and the schemas and
 * fields its steps name: lib/flow/validate-project-flow.ts), no `{{secrets.*}}` outside outbound
 * steps, and per trigger: a record trigger's schema holds records and its condition reads
 * `trigger.*`; a schedule is a five-field cron expression in an IANA time zone. A definition that
 * passes is answered with its placeholder warnings, read against its trigger's payload.
 */
export async function validateAutomationOrThrow(options: { projectId: string; input: unknown }): Promise<ValidatedAutomationInput> {
  const parsed = automationInputSchema.safeParse(options.input);
  const issues: ErrorIssue[] = parsed.success ? [] : issuesFromZod(parsed.error);
  const rawSteps = (options.input as { steps?: unknown } | null)?.steps ?? [];
  // The flow's project checks run only when the definition itself is sound, as for endpoints.
  const flow = await validateProjectFlow({ projectId: options.projectId, steps: rawSteps, projectChecks: parsed.success });
  issues.push(...flow.issues.filter((issue) => !issues.some((known) => known.path === issue.path)));
  if (parsed.success) {
    // A trigger is never sent anywhere by an outbound step, so it has no place for a secret (the steps check their own).
    const { steps: _steps, ...rest } = parsed.data;
    issues.push(...secretPlacementErrorIssues(rest, ""));
    issues.push(...triggerIssues(parsed.data.trigger));
    const { trigger } = parsed.data;
    // Read again only when the flow was too broken to reach its own project checks.
    const schemas = flow.schemas ?? (trigger.type === "record" ? await loadProjectSchemas(options.projectId) : null);
    if (schemas) issues.push(...recordSchemaIssues(trigger, schemas));
  }
  if (issues.length > 0 || !parsed.success || !flow.steps) throw new AppError("validation_failed", "invalid automation", { issues });
  const { trigger } = parsed.data;
  const warnings = findFlowTemplateWarnings({
    steps: flow.steps,
    schemas: toTemplateContextSchemas(flow.schemas ?? new Map()),
    owner: { kind: "automation", trigger: { type: trigger.type, schema: trigger.type === "record" ? trigger.schema : null } },
  });
  return { ...parsed.data, steps: flow.steps, warnings };
}
