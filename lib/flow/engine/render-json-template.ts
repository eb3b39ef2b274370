import { MISSING, parseTemplate, resolvePlaceholder, stringifyTemplateValue, type TemplateScope } from "./render-template";

/**
 * Renders a template that writes JSON text (an HTTP or webhook body, a JSON response). The same
 * rules as renderTemplate, with one addition: a value inserted inside a JSON string literal
 * (`"name": "{{body.name}}"`) is escaped as JSON string content, so a quote or backslash in the
 * data cannot break the document or inject fields. Values outside string literals are inserted as
 * renderTemplate does (JSON for non-strings).
 */

const insideStringCache = new Map<string, readonly boolean[]>();

/** For each placeholder in order: does it sit inside a JSON string literal? */
function placeholdersInsideStrings(template: string): readonly boolean[] {
  const cached = insideStringCache.get(template);
  if (cached !== undefined) return cached;
  const flags: boolean[] = [];
  let inString = false;
  let escaped = false;
  for (const part of parseTemplate(template).parts) {
    if (typeof part !== "string") {
      flags.push(inString);
      continue;
    }
    for (let i = 0; i < part.length; i++) {
      const char = part[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (char === "\\") escaped = true;
        else if (char === '"') inString = false;
      } else if (char === '"') {
        inString = true;
      }
    }
  }
  if (template.length <= 16_384) {
    if (insideStringCache.size >= 2_000) insideStringCache.clear();
    insideStringCache.set(template, flags);
  }
  return flags;
}

function escapeJsonStringContent(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.slice(1, -1);
}

export function renderJsonTemplate(template: string, scope: TemplateScope): string {
  if (!template.includes("{{")) return template;
  const { parts } = parseTemplate(template);
  const inside = placeholdersInsideStrings(template);
  let out = "";
  let placeholderIndex = 0;
  for (const part of parts) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    const value = resolvePlaceholder(scope, part);
    const text = value === MISSING ? part.raw : stringifyTemplateValue(value);
    out += inside[placeholderIndex] && value !== MISSING ? escapeJsonStringContent(text) : text;
    placeholderIndex += 1;
  }
  return out;
}

/** True when a body template is meant to be JSON (starts with an object or array). */
export function looksLikeJsonTemplate(template: string): boolean {
  const start = template.trimStart()[0];
  return start === "{" || start === "[";
}
