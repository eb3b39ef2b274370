import { isSecretKey, REDACTED, redactBearerTokens } from "./redact";

export const PREVIEW_MAX_CHARS = 2_000;

/**
 * Redacts while serialising (no deep copy of the output first: a query step's output can be 100
 * records with their expansions, and previews run on every logged step).
 */
function redactingReplacer(this: unknown, key: string, value: unknown): unknown {
  if (key !== "" && isSecretKey(key)) return REDACTED;
  return typeof value === "string" ? redactBearerTokens(value) : value;
}

/** A step output as the log shows it: redacted, serialised, capped. */
export function previewValue(value: unknown, maxChars = PREVIEW_MAX_CHARS): string | null {
  if (value === null || value === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(value, redactingReplacer) ?? "null";
  } catch {
    text = "[not serialisable]";
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}… (${text.length - maxChars} more characters)` : text;
}
