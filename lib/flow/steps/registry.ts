import { conditionStep } from "./condition/definition";
import { createStep } from "./create/definition";
import { emailStep } from "./email/definition";
import { httpStep } from "./http/definition";
import { queryStep } from "./query/definition";
import type { StepDefinition } from "./step-definition";
import type { StepKind } from "./step-kind";
import { transformStep } from "./transform/definition";
import { updateStep } from "./update/definition";
import { webhookStep } from "./webhook/definition";

/**
 * Every step kind's definition (browser-safe). Typed per kind, so a missing or mislabelled kind
 * fails the type check.
 */
export const STEP_DEFINITIONS = {
  query: queryStep,
  transform: transformStep,
  condition: conditionStep,
  create: createStep,
  update: updateStep,
  http: httpStep,
  webhook: webhookStep,
  email: emailStep,
} as const satisfies { readonly [K in StepKind]: StepDefinition<K> };

/** The same map under the plain contract type, for code that handles any kind. */
export const STEP_REGISTRY: Readonly<Record<StepKind, StepDefinition>> = STEP_DEFINITIONS;
