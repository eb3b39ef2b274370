import { renderJsonTemplate } from "./render-json-template";
import { jsonTextOf, MISSING, parseTemplate, renderTemplate, resolvePlaceholder, type TemplateScope } from "./render-template";

/** Serves text as the JSON rules say: as it is when it parses as JSON, else as a JSON string. */
export function jsonBodyFromText(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
}

/**
 * The JSON rules of the specification, for every JSON answer (an endpoint's response and a
 * condition's stop body): a body that is exactly `{{steps.<name>}}` serves that output directly;
 * otherwise the rendered text is served as JSON when it parses, and as a JSON string when it does
 * not — a template typo never becomes a 500. Values placed inside JSON string literals are
 * escaped, so data cannot break out of them.
 */
export function renderJsonBody(template: string, scope: TemplateScope): string {
  return renderJsonBodyWithValue(template, scope).text;
}

/**
 * renderJsonBody's text, and the value it is the JSON text of when the body is exactly one step's
 * output (`value`, else MISSING): the execution log previews that value instead of parsing the body back.
 */
export function renderJsonBodyWithValue(template: string, scope: TemplateScope): { text: string; value: unknown } {
  if (!template.includes("{{")) return { text: jsonBodyFromText(template), value: MISSING };
  const { single } = parseTemplate(template);
  if (single && single.root === "steps") {
    const value = resolvePlaceholder(scope, single);
    if (value !== MISSING) return { text: jsonTextOf(value ?? null), value: value ?? null };
  }
  return { text: renderJsonText(template, scope), value: MISSING };
}

function renderJsonText(template: string, scope: TemplateScope): string {
  const rendered = renderJsonTemplate(template, scope);
  try {
    JSON.parse(rendered);
    return rendered;
  } catch {
    // Not JSON (plain text such as `Ticket "{{body.id}}" is closed`): the caller gets the text as a
    // JSON string, with values as they are rather than JSON-escaped a second time.
    return JSON.stringify(renderTemplate(template, scope));
  }
}
