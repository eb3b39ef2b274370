import { AppError } from "@/lib/errors";
import { parseTemplate, renderTemplate, resolvePlaceholder, MISSING, type TemplateScope } from "@/lib/flow/engine/render-template";
import { renderJsonTemplate } from "@/lib/flow/engine/render-json-template";
import type { ResponseContentType } from "../endpoint-definition";

export interface RenderedResponse {
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * JSON rules of the specification: a body that is exactly `{{steps.<name>}}` serves that output
 * directly; otherwise the rendered text is served as JSON when it parses, and as a JSON string when
 * it does not — a template typo never becomes a 500. Values placed inside JSON string literals are
 * escaped, so data cannot break out of them.
 */
export function renderJsonBody(template: string, scope: TemplateScope): string {
  const { single } = parseTemplate(template);
  if (single && single.root === "steps") {
    const value = resolvePlaceholder(scope, single);
    if (value !== MISSING) return JSON.stringify(value ?? null);
  }
  const rendered = template.includes("{{") ? renderJsonTemplate(template, scope) : template;
  try {
    JSON.parse(rendered);
    return rendered;
  } catch {
    return JSON.stringify(rendered);
  }
}

/** Serves text as the JSON rules say (condition stop bodies use the same rules). */
export function jsonBodyFromText(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}

const CONTENT_TYPE_HEADER: Record<ResponseContentType, string> = {
  "application/json": "application/json; charset=utf-8",
  "text/html": "text/html; charset=utf-8",
  "application/xml": "application/xml; charset=utf-8",
  "text/plain": "text/plain; charset=utf-8",
  "text/csv": "text/csv; charset=utf-8",
};

/** Extra headers are templates; a rendered value with a line break would split the header, so it fails the response. */
export function renderResponseHeaders(headers: Readonly<Record<string, string>>, scope: TemplateScope): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, template] of Object.entries(headers)) {
    const value = renderTemplate(template, scope);
    if (/[\r\n\0]/.test(value)) throw new AppError("validation_failed", `the response header ${name} rendered a line break`);
    out[name.toLowerCase()] = value;
  }
  return out;
}

export function renderEndpointResponse(
  response: { status: number; contentType: ResponseContentType; body: string; headers: Readonly<Record<string, string>> },
  scope: TemplateScope,
): RenderedResponse {
  const body = response.contentType === "application/json" ? renderJsonBody(response.body, scope) : renderTemplate(response.body, scope);
  return { status: response.status, contentType: CONTENT_TYPE_HEADER[response.contentType], body, headers: renderResponseHeaders(response.headers, scope) };
}
