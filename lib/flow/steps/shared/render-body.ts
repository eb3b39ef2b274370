import { looksLikeJsonTemplate, renderJsonTemplate } from "@/lib/flow/engine/render-json-template";
import { renderTemplate, type TemplateScope } from "@/lib/flow/engine/render-template";

/**
 * Renders an outgoing request body and sets a content type when none is given: a body template
 * that starts with { or [ is rendered as JSON (values inside string literals JSON-escaped) and sent
 * as application/json; anything else is text.
 */
export function renderRequestBody(template: string, scope: TemplateScope, headers: Record<string, string>): string {
  const json = looksLikeJsonTemplate(template);
  const body = json ? renderJsonTemplate(template, scope) : renderTemplate(template, scope);
  if (headers["content-type"] === undefined) headers["content-type"] = json ? "application/json" : "text/plain; charset=utf-8";
  return body;
}
