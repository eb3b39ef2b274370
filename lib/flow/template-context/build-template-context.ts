import type { TriggerType } from "@/lib/automations/automation-definition";
import type { EndpointAuthMode } from "@/lib/endpoints/endpoint-definition";
import type { EndpointInputSpec, InputLocation } from "@/lib/endpoints/endpoint-input";
import { shapeOfRecord, type TemplateContextSchema } from "./shape-of-record";
import { shapeOfDeclaredInput } from "./shape-of-declared-input";
import { shapeOfValue } from "./shape-of-value";
import { BOOLEAN_SHAPE, NUMBER_SHAPE, objectShape, TEXT_SHAPE, UNKNOWN_SHAPE, type ValueShape } from "./value-shape";

/** A step as the context needs it: the management API's JSON, a parsed step and the editor's draft all fit. */
export interface TemplateContextStep {
  readonly type: string;
  readonly name?: string | null;
  readonly enabled?: boolean;
  readonly schema?: unknown;
  readonly expand?: unknown;
}

/** Who runs the flow decides what `body`, `query`, `user` and `trigger` hold. */
export type TemplateFlowOwner =
  | {
      readonly kind: "endpoint";
      readonly auth: EndpointAuthMode;
      readonly authSchema?: string | null;
      /** The endpoint's typed input: declared body and query fields are known with their types. */
      readonly input?: EndpointInputSpec | null;
    }
  | { readonly kind: "automation"; readonly trigger: { readonly type: TriggerType; readonly schema?: string | null } };

export interface BuildTemplateContextOptions {
  readonly steps: readonly TemplateContextStep[];
  /** The index of the step whose settings are edited, or "response" (rendered after every step). */
  readonly at: number | "response";
  readonly schemas: readonly TemplateContextSchema[];
  readonly owner: TemplateFlowOwner;
  /** Step outputs of the last test run by output name: the suggestions show their shape. */
  readonly testOutputs?: Readonly<Record<string, unknown>>;
  /** The last test run's request (endpoints): the suggestions show the fields of its body and query. */
  readonly testRequest?: { readonly body?: unknown; readonly query?: unknown };
}

/** Where a named step stands relative to the template being written. */
export type StepAvailability = "available" | "later" | "self" | "disabled";

export interface StepInContext {
  readonly name: string;
  readonly index: number;
  readonly type: string;
  readonly availability: StepAvailability;
  /** What its output is known to be before any run (the lint reads this). */
  readonly shape: ValueShape;
  /** What the suggestions show: the last test output's shape when there is one, else `shape`. */
  readonly previewShape: ValueShape;
  readonly fromTestRun: boolean;
}

export type ContextRoot = "body" | "query" | "user" | "trigger";

/** What a template at one place of a flow can read: the roots' shapes and every named step. */
export interface TemplateContext {
  /** What each root is known to hold before any run (the lint reads this). */
  readonly roots: ReadonlyMap<ContextRoot, ValueShape>;
  /** What the suggestions show where a test run's request tells more than `roots` (a free-form body's fields). */
  readonly previewRoots: ReadonlyMap<ContextRoot, ValueShape>;
  readonly steps: ReadonlyMap<string, StepInContext>;
}

const NO_REQUEST_NOTE = "an automation has no request: read what started it as {{trigger.…}}";
const DATA_STEPS: ReadonlySet<string> = new Set(["query", "create", "update"]);

function recordSchemaNamed(schemas: readonly TemplateContextSchema[], name: unknown): TemplateContextSchema | undefined {
  return typeof name === "string" ? schemas.find((schema) => schema.name === name && (schema.kind === "collection" || schema.kind === "auth")) : undefined;
}

/** The output a step of a kind answers, as far as its settings tell before a run. */
function outputShapeOf(step: TemplateContextStep, schemas: readonly TemplateContextSchema[]): ValueShape {
  const schema = DATA_STEPS.has(step.type) ? recordSchemaNamed(schemas, step.schema) : undefined;
  switch (step.type) {
    case "query": {
      if (!schema) return { kind: "array", items: UNKNOWN_SHAPE };
      const expand = Array.isArray(step.expand) ? step.expand.filter((name): name is string => typeof name === "string") : [];
      return { kind: "array", items: shapeOfRecord(schema, { expand }) };
    }
    case "create":
      return schema ? shapeOfRecord(schema) : UNKNOWN_SHAPE;
    case "update":
      return schema ? shapeOfRecord(schema, { extra: [["matched", BOOLEAN_SHAPE]] }) : UNKNOWN_SHAPE;
    case "http":
      return objectShape(
        [
          ["status", NUMBER_SHAPE],
          ["ok", BOOLEAN_SHAPE],
          ["body", { kind: "unknown", label: "the reply (JSON parsed)" }],
          ["truncated", { kind: "boolean", label: "true when the reply was cut at 256 KB" }],
        ],
        { label: "HTTP reply" },
      );
    case "condition":
    case "webhook":
    case "email":
      return { kind: "null", note: `a ${step.type} step has no output`, label: "no output" };
    default:
      // A transform's result depends on its data: known only after a run.
      return { kind: "unknown", label: "result of a JMESPath expression" };
  }
}

function availabilityOf(index: number, enabled: boolean, at: number | "response"): StepAvailability {
  if (!enabled) return "disabled";
  if (at === "response" || index < at) return "available";
  return index === at ? "self" : "later";
}

function userShape(owner: TemplateFlowOwner, schemas: readonly TemplateContextSchema[]): ValueShape {
  if (owner.kind === "automation") return { kind: "null", note: "an automation has no signed-in user", label: "no user" };
  if (owner.auth !== "end_user") return { kind: "null", note: `this endpoint has no signed-in user (auth is ${owner.auth}); user is set on end-user endpoints`, label: "no user" };
  const schema = owner.authSchema ? schemas.find((candidate) => candidate.name === owner.authSchema && candidate.kind === "auth") : undefined;
  return schema ? { ...shapeOfRecord(schema), label: `signed-in ${schema.name} user` } : { kind: "unknown", label: "signed-in user" };
}

function triggerShape(owner: TemplateFlowOwner, schemas: readonly TemplateContextSchema[]): ValueShape {
  if (owner.kind === "endpoint") return { kind: "unknown", label: "the request body" };
  const { trigger } = owner;
  switch (trigger.type) {
    case "form":
      return objectShape(
        [
          ["form", TEXT_SHAPE],
          ["submissionId", TEXT_SHAPE],
          ["fields", { kind: "unknown", label: "the submitted fields" }],
          ["submittedAt", { kind: "text", label: "datetime" }],
          ["ip", TEXT_SHAPE],
        ],
        { label: "form submission" },
      );
    case "record": {
      const schema = recordSchemaNamed(schemas, trigger.schema);
      const record: ValueShape = schema ? shapeOfRecord(schema) : UNKNOWN_SHAPE;
      return objectShape(
        [
          ["event", { kind: "text", label: "create, update or delete" }],
          ["schema", TEXT_SHAPE],
          ["record", record],
          ["previous", schema ? { ...record, label: `${schema.name} record before the change` } : UNKNOWN_SHAPE],
        ],
        { label: "record change" },
      );
    }
    case "schedule":
      return objectShape([["scheduledAt", { kind: "text", label: "datetime" }]], { label: "schedule tick" });
    case "manual":
      return { kind: "unknown", label: "the Run now payload" };
  }
}

function requestShape(owner: TemplateFlowOwner, location: InputLocation): ValueShape {
  if (owner.kind !== "endpoint") return objectShape([], { label: "empty", note: NO_REQUEST_NOTE });
  const declared = owner.input?.[location];
  if (declared && Object.keys(declared).length > 0) return shapeOfDeclaredInput(declared, location);
  return { kind: "unknown", label: location === "body" ? "the request body" : "query parameters" };
}

function declaresLocation(owner: TemplateFlowOwner, location: InputLocation): boolean {
  return owner.kind === "endpoint" && Object.keys(owner.input?.[location] ?? {}).length > 0;
}

/**
 * What templates at one place of a flow can read (docs/DESIGN.md section 5, "Context and
 * templates"): `body` and `query` (free-form on endpoints unless their input declares fields, empty
 * in automations), `user` (the auth
 * schema's fields on end-user endpoints, else null), `trigger` (the request body on endpoints, the
 * trigger's payload in automations) and `steps.<name>`: outputs of earlier enabled steps, shaped by
 * their kind and schema. Pure and browser-safe: the editor's autocomplete and the save-time lint
 * both build it.
 */
export function buildTemplateContext(options: BuildTemplateContextOptions): TemplateContext {
  const endpoint = options.owner.kind === "endpoint";
  const roots = new Map<ContextRoot, ValueShape>([
    ["body", requestShape(options.owner, "body")],
    ["query", requestShape(options.owner, "query")],
    ["user", userShape(options.owner, options.schemas)],
    ["trigger", triggerShape(options.owner, options.schemas)],
  ]);
  const steps = new Map<string, StepInContext>();
  options.steps.forEach((step, index) => {
    const name = typeof step.name === "string" ? step.name.trim() : "";
    if (name === "" || steps.has(name)) return;
    const shape = outputShapeOf(step, options.schemas);
    const tested = options.testOutputs !== undefined && Object.hasOwn(options.testOutputs, name);
    steps.set(name, {
      name,
      index,
      type: step.type,
      availability: availabilityOf(index, step.enabled !== false, options.at),
      shape,
      previewShape: tested ? shapeOfValue(options.testOutputs?.[name]) : shape,
      fromTestRun: tested,
    });
  });
  const previewRoots = new Map<ContextRoot, ValueShape>();
  const request = endpoint ? options.testRequest : undefined;
  // A declared input says more than one sample request: its fields and types stay the suggestions.
  if (request?.body !== undefined) {
    if (!declaresLocation(options.owner, "body")) previewRoots.set("body", shapeOfValue(request.body));
    previewRoots.set("trigger", shapeOfValue(request.body));
  }
  if (request?.query !== undefined && !declaresLocation(options.owner, "query")) previewRoots.set("query", shapeOfValue(request.query));
  return { roots, previewRoots, steps };
}
