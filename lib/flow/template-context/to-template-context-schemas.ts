import type { ProjectSchemas } from "@/lib/flow/steps/shared/project-checks";
import type { TemplateContextSchema } from "./shape-of-record";

/** The save-time checks' schema summaries as the template context reads them. */
export function toTemplateContextSchemas(schemas: ProjectSchemas): TemplateContextSchema[] {
  return [...schemas].map(([name, schema]) => ({ name, kind: schema.kind, fields: [...schema.fields].map(([field, { type }]) => ({ name: field, type })) }));
}
