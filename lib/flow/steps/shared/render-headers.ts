import { AppError } from "@/lib/errors";
import { renderTemplate, type TemplateScope } from "@/lib/flow/engine/render-template";

/** Renders header templates; a value that renders to CR, LF or NUL fails the step (header injection). */
export function renderHeaders(headers: Readonly<Record<string, string>>, scope: TemplateScope): Record<string, string> {
  const rendered: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = renderTemplate(headers[name] ?? "", scope);
    if (/[\r\n\0]/.test(value)) {
      throw new AppError("validation_failed", `header "${name}" contains a line break after rendering`);
    }
    rendered[name.toLowerCase()] = value;
  }
  return rendered;
}
