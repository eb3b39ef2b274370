import { AppError } from "@/lib/errors";
import { MISSING, parseTemplate, resolvePlaceholder, stringifyTemplateValue, type TemplateScope } from "@/lib/flow/engine/render-template";
import { isHttpUrl } from "./fields";

/**
 * Renders a URL template. A placeholder at the very start inserts the base URL as it is
 * (`{{steps.config.baseUrl}}/items`); every other inserted value is percent-encoded, so data
 * cannot add path segments, query parameters or a different host. The result must be http(s).
 */
export function renderUrl(template: string, scope: TemplateScope): string {
  const { parts } = parseTemplate(template.trim());
  let url = "";
  for (const [index, part] of parts.entries()) {
    if (typeof part === "string") {
      url += part;
      continue;
    }
    const value = resolvePlaceholder(scope, part);
    if (value === MISSING) url += part.raw;
    else url += index === 0 ? stringifyTemplateValue(value) : encodeURIComponent(stringifyTemplateValue(value));
  }
  if (!isHttpUrl(url)) throw new AppError("validation_failed", `the URL "${url.slice(0, 200)}" is not a valid http:// or https:// URL`);
  return url;
}
