import "server-only";
import { invocationBase } from "@/lib/http/invocation-origin";
import { listEmailTemplates } from "@/lib/email-templates/list-email-templates";
import { listSchemas } from "@/lib/schemas/list-schemas";
import type { EditorSchema } from "@/components/endpoints/step-settings";

/** What the endpoint editor's pickers offer: the project's schemas with their fields, saved email templates, and the invocation URL's base. */
export async function loadEditorContext(projectId: string): Promise<{ schemas: EditorSchema[]; emailTemplates: string[]; invocationBase: string }> {
  const [schemas, templates] = await Promise.all([listSchemas({ projectId }), listEmailTemplates({ projectId })]);
  return {
    schemas: schemas.map((schema) => ({
      name: schema.name,
      kind: schema.kind,
      fields: schema.fields.map((field) => ({
        name: field.name,
        type: field.type,
        ...("unique" in field && field.unique ? { unique: true } : {}),
        ...("indexed" in field && field.indexed ? { indexed: true } : {}),
      })),
    })),
    emailTemplates: templates.map((template) => template.name),
    invocationBase: invocationBase(projectId),
  };
}
