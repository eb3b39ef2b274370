import { renderValue, type TemplateScope } from "@/lib/flow/engine/render-template";

/** Renders record field values: a single placeholder keeps its type; other strings render to text. */
export function renderRecordValues(values: Readonly<Record<string, unknown>>, scope: TemplateScope): Record<string, unknown> {
  return renderValue(values, scope) as Record<string, unknown>;
}
