import type { ErrorIssue } from "@/lib/errors";
import { SECRET_NAME_PATTERN } from "@/lib/secrets/secret-name";
import { parseTemplate } from "./engine/render-template";

/**
 * Where `{{secrets.NAME}}` may appear (browser-safe, so the editor checks the same way): only in the
 * fields a step kind lists as `secretFields` (the URL, headers and body of outbound steps). Anywhere
 * else (responses, transforms, conditions, record values, filters) a flow could hand the value back
 * to its caller, so it is refused when saved.
 */

// Any placeholder that reads the `secrets` root, however it is spaced or whatever follows.
const SECRET_MENTION = /\{\{\s*secrets\s*(?:[.}]|$)/;

export const SECRET_PLACEMENT_MESSAGE = "secrets ({{secrets.NAME}}) can only be used in the URL, headers and body of HTTP, webhook and email steps";

export function mentionsSecrets(text: string): boolean {
  return text.includes("{{") && SECRET_MENTION.test(text);
}

/** The secret names a template refers to, in order of first use. */
export function secretNamesIn(templates: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const template of templates) {
    if (!mentionsSecrets(template)) continue;
    for (const part of parseTemplate(template).parts) {
      if (typeof part !== "string" && part.root === "secrets" && part.path.length === 1) names.add(part.path[0]!);
    }
  }
  return [...names];
}

/** A mention that is not exactly `{{secrets.NAME}}` with a valid name. */
function malformedReference(template: string): string | null {
  const wellFormed = template.replace(/\{\{\s*secrets\.([^{}\s.]+)\s*\}\}/g, (whole, name: string) => (SECRET_NAME_PATTERN.test(name) ? "" : whole));
  if (!mentionsSecrets(wellFormed)) return null;
  return "a secret is referenced as {{secrets.NAME}}, NAME in A-Z, 0-9 and _ starting with a letter";
}

/**
 * Issues for every string in `value` (object keys included) that mentions secrets where it may not.
 * `allowed` says whether the string at a path (relative to `value`) may hold references; keys never may.
 */
export function secretPlacementIssues(
  value: unknown,
  allowed: (path: readonly (string | number)[]) => boolean,
  path: (string | number)[] = [],
): Array<{ path: (string | number)[]; message: string }> {
  const issues: Array<{ path: (string | number)[]; message: string }> = [];
  const visit = (current: unknown, at: (string | number)[]) => {
    if (typeof current === "string") {
      if (!mentionsSecrets(current)) return;
      if (!allowed(at.slice(path.length))) issues.push({ path: at, message: SECRET_PLACEMENT_MESSAGE });
      else {
        const malformed = malformedReference(current);
        if (malformed) issues.push({ path: at, message: malformed });
      }
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => visit(item, [...at, index]));
    } else if (current !== null && typeof current === "object") {
      for (const [key, item] of Object.entries(current)) {
        if (mentionsSecrets(key)) issues.push({ path: [...at, key], message: SECRET_PLACEMENT_MESSAGE });
        visit(item, [...at, key]);
      }
    }
  };
  visit(value, path);
  return issues;
}

/** The same issues in the API's `{path, message}` shape. */
export function secretPlacementErrorIssues(value: unknown, prefix: string): ErrorIssue[] {
  return secretPlacementIssues(value, () => false).map((issue) => ({ path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."), message: issue.message }));
}

/** Every secret name referenced anywhere in a JSON value (a flow, an endpoint, an export), sorted. */
export function secretNamesInValue(value: unknown): string[] {
  const templates: string[] = [];
  const visit = (current: unknown) => {
    if (typeof current === "string") {
      if (mentionsSecrets(current)) templates.push(current);
    } else if (Array.isArray(current)) current.forEach(visit);
    else if (current !== null && typeof current === "object") Object.values(current).forEach(visit);
  };
  visit(value);
  return secretNamesIn(templates).sort();
}

export const SECRET_URL_ORIGIN_MESSAGE =
  "a step that sends secrets must not take its URL's scheme, host or port from request data or step outputs (use a literal origin or {{secrets.NAME}})";

/**
 * True when a URL template lets run data choose where a step connects: a placeholder other than
 * `{{secrets.…}}` in the scheme, host or port (a leading placeholder is inserted raw as a base URL,
 * so it counts too). A step that sends secrets must not let a caller redirect them to its own server.
 */
export function urlOriginIsTemplated(url: string): boolean {
  const { parts } = parseTemplate(url.trim());
  const placeholders: Array<{ root: string }> = [];
  let text = "";
  for (const part of parts) {
    if (typeof part === "string") text += part;
    else {
      text += `\u0001${placeholders.length}\u0002`;
      placeholders.push(part);
    }
  }
  const schemeEnd = text.indexOf("://");
  const hostStart = schemeEnd === -1 ? 0 : schemeEnd + 3;
  const hostLength = text.slice(hostStart).search(/[/?#]/);
  const origin = hostLength === -1 ? text : text.slice(0, hostStart + hostLength);
  for (const match of origin.matchAll(/\u0001(\d+)\u0002/g)) {
    if (placeholders[Number(match[1])]?.root !== "secrets") return true;
  }
  return false;
}
