import { AppError } from "@/lib/errors";
import { escapeCsvField } from "@/lib/flow/engine/escape-csv-field";
import { escapeHtml } from "@/lib/flow/engine/escape-html";
import { escapeXml } from "@/lib/flow/engine/escape-xml";
import { renderJsonBody, renderJsonBodyWithValue } from "@/lib/flow/engine/render-json-body";
import { MISSING, renderTemplate, type TemplateScope } from "@/lib/flow/engine/render-template";
import type { ResponseContentType } from "../endpoint-definition";

export interface RenderedResponse {
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
  /**
   * Set when the JSON body is exactly one step's output (a body of `{{steps.<name>}}`): the value it
   * is the text of, which the execution log previews instead of parsing the body back.
   */
  bodyValue?: unknown;
}

const CONTENT_TYPE_HEADER: Record<ResponseContentType, string> = {
  "application/json": "application/json; charset=utf-8",
  "text/html": "text/html; charset=utf-8",
  "application/xml": "application/xml; charset=utf-8",
  "text/plain": "text/plain; charset=utf-8",
  "text/csv": "text/csv; charset=utf-8",
};

type BodyRenderer = (template: string, scope: TemplateScope) => string;

/**
 * How each content type's body is rendered: every inserted value is escaped for what the answer
 * is (docs/DESIGN.md section 5), while the owner's template text is served as written. A content type
 * added to the list without a row here fails the type check.
 */
const BODY_RENDERERS = {
  "application/json": renderJsonBody,
  "text/html": (template, scope) => renderTemplate(template, scope, { escape: escapeHtml }),
  "application/xml": (template, scope) => renderTemplate(template, scope, { escape: escapeXml }),
  "text/plain": (template, scope) => renderTemplate(template, scope),
  "text/csv": (template, scope) => renderTemplate(template, scope, { escape: escapeCsvField }),
} satisfies Record<ResponseContentType, BodyRenderer>;

/** Renders an answer's body for its content type; the one place endpoint answers are rendered. */
export function renderResponseBody(contentType: ResponseContentType, template: string, scope: TemplateScope): string {
  return BODY_RENDERERS[contentType](template, scope);
}

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
  const status = response.status;
  const contentType = CONTENT_TYPE_HEADER[response.contentType];
  if (response.contentType === "application/json") {
    const { text, value } = renderJsonBodyWithValue(response.body, scope);
    const headers = renderResponseHeaders(response.headers, scope);
    return value === MISSING ? { status, contentType, body: text, headers } : { status, contentType, body: text, headers, bodyValue: value };
  }
  return { status, contentType, body: renderResponseBody(response.contentType, response.body, scope), headers: renderResponseHeaders(response.headers, scope) };
}
