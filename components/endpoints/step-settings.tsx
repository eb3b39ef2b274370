"use client";

import type { StepKind } from "@/lib/flow/steps/step-kind";
import { lazyWithPreload } from "@/components/ui/lazy-with-preload";
import type { SettingsProps } from "./step-forms/shared";

export { recordSchemaNames, SchemaSelectField, type EditorSchema } from "./schema-select-field";

const query = lazyWithPreload(() => import("./step-forms/query").then((module) => module.QuerySettings));
const transform = lazyWithPreload(() => import("./step-forms/transform").then((module) => module.TransformSettings));
const condition = lazyWithPreload(() => import("./step-forms/condition").then((module) => module.ConditionSettings));
const recordWrite = lazyWithPreload(() => import("./step-forms/record-write").then((module) => module.RecordWriteSettings));
const http = lazyWithPreload(() => import("./step-forms/outbound").then((module) => module.HttpSettings));
const webhook = lazyWithPreload(() => import("./step-forms/outbound").then((module) => module.WebhookSettings));
const email = lazyWithPreload(() => import("./step-forms/email").then((module) => module.EmailSettings));

/**
 * Every kind's settings form, each its own chunk (step-forms/<kind>.tsx): the server renders the
 * forms of the steps in the flow, and the browser loads only those kinds' code, each form hydrating
 * when its chunk arrives. A kind without a form fails the type check instead of rendering nothing.
 */
const SETTINGS_FORMS = {
  query,
  transform,
  condition,
  create: recordWrite,
  update: recordWrite,
  http,
  webhook,
  email,
} satisfies Record<StepKind, ReturnType<typeof lazyWithPreload<SettingsProps>>>;

/** Loads every kind's form (the add-step menu's choices), so that a step added later appears at once. */
export function preloadStepForms(): Promise<unknown> {
  return Promise.all(Object.values(SETTINGS_FORMS).map((form) => form.preload()));
}

/**
 * Starts loading the forms of these kinds at once, so that hydration, which waits at each form whose
 * code has not arrived, waits for one round of requests rather than one per kind in turn.
 */
export function preloadStepFormsOf(kinds: readonly StepKind[]): void {
  for (const kind of new Set(kinds)) void SETTINGS_FORMS[kind].preload().catch(() => {});
}

/** The settings form of one step, written for its kind's zod schema in lib/flow/steps/<kind>/definition.ts. */
export function StepSettings(props: SettingsProps) {
  const Form = SETTINGS_FORMS[props.step.type].Component;
  // No Suspense boundary of its own: React 19.2's server outlines a boundary once the page has
  // flushed 12.8 kB (the fallback is painted, the content revealed later), which shifted the cards.
  return <Form {...props} />;
}
