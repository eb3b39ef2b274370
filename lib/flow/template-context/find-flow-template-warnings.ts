import { buildTemplateContext, type TemplateContextStep, type TemplateFlowOwner } from "./build-template-context";
import { findUnresolvedPlaceholders } from "./find-unresolved-placeholders";
import { listResponseTemplateFields, listStepTemplateFields, type TemplateField } from "./list-template-fields";
import type { TemplateContextSchema } from "./shape-of-record";

/**
 * A placeholder that will not resolve when the flow runs: reported when the flow is saved, beside
 * the errors, without blocking the save. `path` is the template's (`steps.2.filters`,
 * `response.headers.X-Total`), as for errors.
 */
export interface TemplateWarning {
  readonly path: string;
  /** The placeholder as written, braces included. */
  readonly placeholder: string;
  readonly message: string;
}

function warningsOf(fields: readonly TemplateField[], prefix: string, context: ReturnType<typeof buildTemplateContext>): TemplateWarning[] {
  return fields.flatMap((field) =>
    findUnresolvedPlaceholders(field.template, context).map((found) => ({
      path: `${prefix}.${field.path}`,
      placeholder: found.raw,
      message: `${found.raw} will not resolve: ${found.message}`,
    })),
  );
}

/**
 * The placeholder lint of a whole flow: each step's templates against what exists before it, an
 * endpoint's response against every step. Steps that are not objects are skipped (the shape check
 * reports them).
 */
export function findFlowTemplateWarnings(options: {
  steps: readonly unknown[];
  response?: { readonly body?: unknown; readonly headers?: unknown } | null;
  schemas: readonly TemplateContextSchema[];
  owner: TemplateFlowOwner;
}): TemplateWarning[] {
  const steps = options.steps.filter(
    (step): step is TemplateContextStep & Record<string, unknown> => step !== null && typeof step === "object" && typeof (step as { type?: unknown }).type === "string",
  );
  if (steps.length !== options.steps.length) return [];
  const contextAt = (at: number | "response") => buildTemplateContext({ steps, at, schemas: options.schemas, owner: options.owner });
  const warnings = steps.flatMap((step, index) => warningsOf(listStepTemplateFields(step), `steps.${index}`, contextAt(index)));
  if (options.response) warnings.push(...warningsOf(listResponseTemplateFields(options.response), "response", contextAt("response")));
  return warnings;
}
