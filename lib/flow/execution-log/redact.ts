/**
 * Execution logs hold request data in the customer's database, so secrets are removed before
 * anything is written: authorization and cookie headers, password-like fields, tokens and keys.
 */
const SECRET_KEY = /(authorization|cookie|password|passwd|pwd|secret|token|api[-_]?key|credential|private[-_]?key)/i;
export const REDACTED = "[redacted]";

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Whether a text holds a name isSecretKey would match anywhere in it (so whether redaction may be needed at all). */
export function mayHoldSecretKey(text: string): boolean {
  return SECRET_KEY.test(text);
}

/** A copy with secret-named fields replaced, at any depth (bounded). */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const safeKey = key.startsWith("$") || key.includes(".") ? key.replace(/^\$/, "＄").replaceAll(".", "․") : key;
      out[safeKey] = isSecretKey(key) ? REDACTED : redactSecrets(item, depth + 1);
    }
    return out;
  }
  if (typeof value === "string") return redactBearerTokens(value);
  return value;
}

const CREDENTIAL_IN_TEXT = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
// Every string of every logged value passes here: a test for the two words is several times cheaper
// than a global replace that finds nothing, which is nearly always the answer.
const MAY_HOLD_CREDENTIAL = /bearer|basic/i;

/** `Bearer abc…` and `Basic abc…` inside text become `Bearer [redacted]`. */
export function redactBearerTokens(text: string): string {
  if (!MAY_HOLD_CREDENTIAL.test(text)) return text;
  return text.replace(CREDENTIAL_IN_TEXT, `$1 ${REDACTED}`);
}
