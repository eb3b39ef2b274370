import { z } from "zod";
import { AppError, issuesFromZod, type ErrorIssue } from "@/lib/errors";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { SECRET_URL_ORIGIN_MESSAGE, secretNamesInValue, secretPlacementIssues, urlOriginIsTemplated } from "./secret-references";
import { STEP_DEFINITIONS, STEP_REGISTRY, type StepKind } from "./steps/registry";
import type { StepDefinition } from "./steps/step-definition";
import { STEP_FIELD_CHECKS } from "./steps/field-checks";
import { STEP_KINDS } from "./steps/step-kind";

/**
 * The schema of a flow's `steps` array as the management API reads and writes it (docs/DESIGN.md
 * section 5). Browser-safe: the editor validates with the same schema.
 */

const OUTPUT_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const commonStepFields = z.object({
  /** Output name: the step's output is stored as `steps.<name>`. Optional. */
  name: z
    .string()
    .trim()
    .regex(OUTPUT_NAME, "must start with a letter and contain only letters, digits and _ (at most 64)")
    .or(z.literal(""))
    .nullish()
    .transform((name) => name || null),
  enabled: z.boolean().default(true),
  continueOnError: z.boolean().default(false),
});

/** A kind's settings with the checks of field-checks.ts on their fields. */
function checkedSettingsShape<Shape extends z.ZodRawShape>(kind: string, shape: Shape): Shape {
  const checks = STEP_FIELD_CHECKS[kind as StepKind];
  if (checks === undefined) return shape;
  const checked: Record<string, z.core.$ZodType> = { ...shape };
  for (const [field, check] of Object.entries(checks)) {
    checked[field] = (shape[field] as z.ZodType).superRefine((value, ctx) => {
      const problem = typeof value === "string" ? check(value) : null;
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    });
  }
  return checked as unknown as Shape;
}

function stepSchema<K extends string, Shape extends z.ZodRawShape>(definition: StepDefinition<K, z.ZodObject<Shape>>) {
  const settings = checkedSettingsShape(definition.id, definition.settings.shape);
  const schema = z.object({ ...commonStepFields.shape, ...settings, type: z.literal(definition.id) });
  const refine = definition.refine?.bind(definition);
  const secretFields = new Set(definition.secretFields ?? []);
  return schema.superRefine((step, ctx) => {
    // A header's value may read a secret, never its name: only the value is a template.
    const allowed = (path: readonly (string | number)[]) => secretFields.has(String(path[0])) && (path[0] !== "headers" || path.length === 2);
    for (const issue of secretPlacementIssues(step, allowed)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    const settings = step as { url?: unknown };
    if (typeof settings.url === "string" && secretFields.size > 0 && secretNamesInValue(step).length > 0 && urlOriginIsTemplated(settings.url)) {
      ctx.addIssue({ code: "custom", path: ["url"], message: SECRET_URL_ORIGIN_MESSAGE });
    }
    refine?.(step as z.output<z.ZodObject<Shape>>, ctx);
  });
}

/** The schema of one kind's steps, typed from its definition in the registry. */
type StepSchemaOf<K extends StepKind> = ReturnType<typeof stepSchema<K, (typeof STEP_DEFINITIONS)[K]["settings"]["shape"]>>;
type AnyStepSchema = { [K in StepKind]: StepSchemaOf<K> }[StepKind];

// One schema per kind of the registry, in its order. The cast restores per-kind types that a loop
// over the kinds loses; StepSchemaOf derives them from the same definitions.
const stepSchemas = STEP_KINDS.map((kind) => stepSchema(STEP_REGISTRY[kind])) as unknown as [AnyStepSchema, ...AnyStepSchema[]];

/** One step: common fields plus the fields of its kind, chosen by `type`. */
export const flowStepSchema = z.discriminatedUnion("type", stepSchemas);

export type FlowStep = z.output<typeof flowStepSchema>;
/** A step as written by a client (defaults may be left out). */
export type FlowStepInput = z.input<typeof flowStepSchema>;
export type FlowStepOf<K extends StepKind> = Extract<FlowStep, { type: K }>;

/** A flow's steps: at most 20, output names unique. */
export const flowStepsSchema = z
  .array(flowStepSchema)
  .max(FLOW_LIMITS.maxSteps, `a flow has at most ${FLOW_LIMITS.maxSteps} steps`)
  .superRefine((steps, ctx) => {
    const seen = new Map<string, number>();
    for (const [index, step] of steps.entries()) {
      if (step.name === null) continue;
      const first = seen.get(step.name);
      if (first === undefined) seen.set(step.name, index);
      else ctx.addIssue({ code: "custom", path: [index, "name"], message: `output name "${step.name}" is already used by step ${first}` });
    }
  });

export type ValidateFlowResult = { ok: true; steps: FlowStep[] } | { ok: false; issues: ErrorIssue[] };

/**
 * Validates a flow's steps as the management API receives them: shape, limits, unique output names,
 * filter lines, and JMESPath expressions compiled within their limits. Issues carry paths like
 * `steps.2.expression` for the 422 answer.
 */
export function validateFlow(steps: unknown): ValidateFlowResult {
  const result = flowStepsSchema.safeParse(steps);
  if (result.success) {
    validatedFlows.add(result.data);
    return { ok: true, steps: result.data };
  }
  return { ok: false, issues: issuesFromZod(result.error, "steps") };
}

/** Like validateFlow, but throws AppError("validation_failed") (422) with the issues. */
export function parseFlowOrThrow(steps: unknown): FlowStep[] {
  const result = validateFlow(steps);
  if (!result.ok) throw new AppError("validation_failed", "invalid flow", { issues: result.issues });
  return result.steps;
}

// Arrays produced by validateFlow, and raw arrays already parsed, so a run never parses twice.
const validatedFlows = new WeakSet<readonly unknown[]>();
const parsedFlows = new WeakMap<readonly unknown[], FlowStep[]>();

/**
 * The parsed steps of a flow, parsed once per array: a validateFlow result is used as it is, other
 * arrays (a definition read back from storage) are parsed on first use and remembered. Treat the
 * array as immutable afterwards. Throws AppError("validation_failed") for an invalid flow.
 */
export function parseFlowCached(steps: readonly unknown[]): readonly FlowStep[] {
  if (validatedFlows.has(steps)) return steps as readonly FlowStep[];
  const cached = parsedFlows.get(steps);
  if (cached !== undefined) return cached;
  const parsed = parseFlowOrThrow(steps);
  parsedFlows.set(steps, parsed);
  return parsed;
}
