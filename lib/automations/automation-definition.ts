import { z } from "zod";
import { conditionCheckSchema } from "@/lib/flow/steps/condition/definition";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { originSchema, SLUG_PATTERN } from "@/lib/endpoints/endpoint-definition";
import { DEFAULT_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS, MAX_RETRY_ATTEMPTS, RECORD_EVENTS } from "./automation-constants";

/**
 * An automation as the management API, exports and the dashboard read and write it (issue 10,
 * docs/DESIGN.md "Automations"): the same flows as endpoints, started by a trigger instead of a call.
 * Browser-safe: the dashboard's editor validates with the same schemas.
 */
export { DEFAULT_BACKOFF_SECONDS, MAX_BACKOFF_SECONDS, MAX_RETRY_ATTEMPTS, RECORD_EVENTS, TRIGGER_TYPES } from "./automation-constants";
export type { RecordEventType, TriggerType } from "./automation-constants";

const httpUrlSchema = z
  .string()
  .max(2_000)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    },
    { message: "must be an http or https URL" },
  );

export const formTriggerSchema = z
  .object({
    type: z.literal("form"),
    /** The form's slug in `POST /api/projects/:projectId/forms/:form`; unique per project. */
    form: z.string().regex(SLUG_PATTERN, "must be 1–64 lowercase letters, digits or dashes"),
    /** Browser origins allowed to post with fetch (CORS); plain HTML form posts need none. */
    allowedOrigins: z.array(originSchema).max(50).default([]),
    /** A field humans leave empty; a submission that fills it is answered as accepted and dropped. */
    honeypot: z
      .string()
      .trim()
      .max(100)
      .regex(/^$|^[A-Za-z0-9_.[\]-]+$/, "must be a form field name (letters, digits, _, -, . and [])")
      .nullish()
      .transform((value) => (value ? value : null)),
    /** Where a browser form post is sent after it is stored (303); fixed by the owner, never by the submission. */
    redirectUrl: httpUrlSchema.nullish().transform((value) => value ?? null),
  })
  .strict();

export const recordTriggerConditionSchema = z
  .object({
    checks: z.array(conditionCheckSchema).min(1, "add at least one check").max(FLOW_LIMITS.maxConditionChecks),
    combinator: z.enum(["all", "any"]).default("all"),
  })
  .strict();

export const recordTriggerSchema = z
  .object({
    type: z.literal("record"),
    /** A collection or auth schema of the project. */
    schema: z.string().min(1).max(64),
    events: z
      .array(z.enum(RECORD_EVENTS))
      .min(1, "choose at least one event")
      .refine((events) => new Set(events).size === events.length, { message: "each event once" }),
    /** Checks over `trigger.*` (e.g. {{trigger.record.status}} equals closed); the run starts only when they pass. */
    condition: recordTriggerConditionSchema.nullish().transform((value) => value ?? null),
  })
  .strict();

export const scheduleTriggerSchema = z
  .object({
    type: z.literal("schedule"),
    /** Five fields (minute hour day-of-month month day-of-week); checked by validate-automation.ts. */
    cron: z.string().trim().min(9).max(120),
    /** An IANA time zone; checked by validate-automation.ts. */
    timezone: z.string().min(1).max(64).default("UTC"),
  })
  .strict();

export const manualTriggerSchema = z.object({ type: z.literal("manual") }).strict();

export const automationTriggerSchema = z.discriminatedUnion("type", [formTriggerSchema, recordTriggerSchema, scheduleTriggerSchema, manualTriggerSchema]);

export type AutomationTrigger = z.output<typeof automationTriggerSchema>;
export type FormTrigger = z.output<typeof formTriggerSchema>;
export type RecordTrigger = z.output<typeof recordTriggerSchema>;
export type ScheduleTrigger = z.output<typeof scheduleTriggerSchema>;

export const retrySchema = z
  .object({
    /** Further attempts after a failed run (0: none, the default, because steps have side effects). */
    attempts: z.number().int().min(0).max(MAX_RETRY_ATTEMPTS, `at most ${MAX_RETRY_ATTEMPTS} retries`).default(0),
    backoffSeconds: z.number().int().min(1).max(MAX_BACKOFF_SECONDS, `at most ${MAX_BACKOFF_SECONDS} seconds`).default(DEFAULT_BACKOFF_SECONDS),
  })
  .strict();

export type AutomationRetry = z.output<typeof retrySchema>;

const automationFields = {
  name: z.string().trim().min(1, "a name is required").max(100),
  enabled: z.boolean().default(true),
  trigger: automationTriggerSchema,
  /** Validated by the flow engine's validateFlow and the project checks (lib/flow/validate-project-flow.ts). */
  steps: z.array(z.unknown()).default([]),
  retry: retrySchema.default({ attempts: 0, backoffSeconds: DEFAULT_BACKOFF_SECONDS }),
};

export const automationInputSchema = z.object(automationFields).strict();
/**
 * PATCH bodies: every field optional; a trigger or retry given is replaced whole. Built without the
 * input's defaults, which zod would otherwise fill in for absent keys and so reset them.
 */
export const automationPatchSchema = z
  .object({ ...automationFields, enabled: z.boolean(), steps: z.array(z.unknown()), retry: retrySchema })
  .partial()
  .strict();

export type AutomationInput = z.output<typeof automationInputSchema>;

export interface AutomationDefinition extends AutomationInput {
  id: string;
  projectId: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}
