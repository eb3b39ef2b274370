import { conditionStep } from "./condition/definition";
import { createStep } from "./create/definition";
import { emailStep } from "./email/definition";
import { httpStep } from "./http/definition";
import { queryStep } from "./query/definition";
import type { StepKind } from "./catalog";
import type { StepDefinition } from "./step-definition";
import { transformStep } from "./transform/definition";
import { updateStep } from "./update/definition";
import { webhookStep } from "./webhook/definition";

/**
 * Checks each definition's `id` against its key, and that the kinds are the catalog's (catalog.ts),
 * while keeping the precise types of the map.
 */
function defineStepRegistry<const T extends { readonly [K in keyof T]: StepDefinition<K & string> } & Record<StepKind, StepDefinition>>(
  definitions: T & Record<Exclude<keyof T, StepKind>, never>,
): T {
  return definitions;
}

/**
 * Every step kind's definition (browser-safe, with its zod settings): one per kind of the catalog
 * (catalog.ts, the one list of step kinds and what the editors read). The flow schema
 * (lib/flow/flow-definition.ts) and the project checks are derived from it; the runners
 * (runners.ts), the editor's forms (components/endpoints/step-settings.tsx) and the template fields
 * (lib/flow/template-context/list-template-fields.ts) are maps over StepKind, so a kind without one
 * fails the type check, as does a definition whose `id` is not its key or a kind the catalog lacks.
 */
export const STEP_DEFINITIONS = defineStepRegistry({
  query: queryStep,
  transform: transformStep,
  condition: conditionStep,
  create: createStep,
  update: updateStep,
  http: httpStep,
  webhook: webhookStep,
  email: emailStep,
});

export type { StepKind };

/** The same map under the plain contract type, for code that handles any kind. */
export const STEP_REGISTRY: Readonly<Record<StepKind, StepDefinition>> = STEP_DEFINITIONS;
