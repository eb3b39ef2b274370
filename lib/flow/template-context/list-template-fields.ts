import type { StepKind } from "@/lib/flow/steps/step-kind";

/** One template of a step or a response: its path relative to the step (`filters`, `values.title`, `checks.0.left`) and its text. */
export interface TemplateField {
  readonly path: string;
  readonly template: string;
}

type Settings = Readonly<Record<string, unknown>>;

function text(settings: Settings, key: string): TemplateField[] {
  const value = settings[key];
  return typeof value === "string" && value !== "" ? [{ path: key, template: value }] : [];
}

/** Every string inside a JSON value (record values are rendered element by element), keyed by its path. */
function strings(value: unknown, path: string): TemplateField[] {
  if (typeof value === "string") return value === "" ? [] : [{ path, template: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, `${path}.${index}`));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => strings(item, `${path}.${key}`));
  return [];
}

function checks(settings: Settings): TemplateField[] {
  const list = Array.isArray(settings.checks) ? (settings.checks as unknown[]) : [];
  return list.flatMap((check, index) => {
    const operands = (check ?? {}) as Settings;
    return [...text(operands, "left"), ...text(operands, "right")].map((field) => ({ ...field, path: `checks.${index}.${field.path}` }));
  });
}

/**
 * Where each kind reads templates. A transform's expression is JMESPath, not a template, and a
 * saved email template's name is a name; every other text a step renders is listed. A kind missing
 * here fails the type check.
 */
const TEMPLATE_FIELDS: Readonly<Record<StepKind, (settings: Settings) => TemplateField[]>> = {
  query: (settings) => text(settings, "filters"),
  transform: () => [],
  condition: (settings) => [...checks(settings), ...text(settings, "stopBody")],
  create: (settings) => strings(settings.values, "values"),
  update: (settings) => [...text(settings, "filters"), ...strings(settings.values, "values")],
  http: (settings) => [...text(settings, "url"), ...strings(settings.headers, "headers"), ...text(settings, "body")],
  webhook: (settings) => [...text(settings, "url"), ...strings(settings.headers, "headers"), ...text(settings, "body")],
  email: (settings) => [...text(settings, "to"), ...(settings.template ? [] : [...text(settings, "subject"), ...text(settings, "body")])],
};

/** The templates of one step (API JSON or parsed), paths relative to the step. */
export function listStepTemplateFields(step: { readonly type: string } & Settings): TemplateField[] {
  const fields = Object.hasOwn(TEMPLATE_FIELDS, step.type) ? TEMPLATE_FIELDS[step.type as StepKind] : undefined;
  return fields ? fields(step) : [];
}

/** The templates of an endpoint's response: the body and each header's value. */
export function listResponseTemplateFields(response: { readonly body?: unknown; readonly headers?: unknown }): TemplateField[] {
  return [...text(response as Settings, "body"), ...strings(response.headers, "headers")];
}
