import { isSecretKey, REDACTED, redactBearerTokens } from "./redact";

export const PREVIEW_MAX_CHARS = 2_000;
const MAX_DEPTH = 50;

/**
 * Writes JSON text until it holds more than `limit` characters, then stops: a query step's output
 * can be 100 records with their expansions and previews run on every logged step, so the work
 * must follow the size of the preview, not the size of the output.
 */
class BoundedJsonWriter {
  private readonly parts: string[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.length > this.limit;
  }

  get remaining(): number {
    return Math.max(0, this.limit - this.length);
  }

  write(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }

  text(): string {
    return this.parts.join("");
  }
}

/** A field name as the preview writes it (`"name":`, or with its value already redacted), kept per name. */
interface KeyText {
  text: string;
  secret: boolean;
}
const keyTexts = new Map<string, KeyText>();
const KEY_TEXTS_MAX = 5_000;

// Records repeat the same few field names in every item of every logged output: their JSON text and
// whether they name a secret are worked out once, not once per field of every record.
function keyText(key: string): KeyText {
  let known = keyTexts.get(key);
  if (known === undefined) {
    if (keyTexts.size >= KEY_TEXTS_MAX) keyTexts.clear();
    const secret = isSecretKey(key);
    known = { text: `${JSON.stringify(key)}:${secret ? JSON.stringify(REDACTED) : ""}`, secret };
    keyTexts.set(key, known);
  }
  return known;
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** JSON.stringify's output, with secret-named fields and credentials in text redacted. */
function writeValue(writer: BoundedJsonWriter, input: unknown, depth: number): void {
  if (writer.full) return;
  const value = input !== null && typeof input === "object" && typeof (input as { toJSON?: unknown }).toJSON === "function" ? (input as { toJSON(): unknown }).toJSON() : input;
  if (value === null || isSkipped(value)) return writer.write("null");
  switch (typeof value) {
    case "string":
      // Cut before redacting: a credential cut short is still matched and hidden.
      return writer.write(JSON.stringify(redactBearerTokens(value.length > writer.remaining ? value.slice(0, writer.remaining + 1) : value)));
    case "number":
      return writer.write(Number.isFinite(value) ? String(value) : "null");
    case "boolean":
    case "bigint":
      return writer.write(String(value));
  }
  if (depth >= MAX_DEPTH) return writer.write('"[too deep]"');
  if (Array.isArray(value)) {
    writer.write("[");
    for (let index = 0; index < value.length && !writer.full; index++) {
      if (index > 0) writer.write(",");
      writeValue(writer, value[index], depth + 1);
    }
    return writer.write("]");
  }
  writer.write("{");
  let first = true;
  for (const key of Object.keys(value as object)) {
    if (writer.full) break;
    const item = (value as Record<string, unknown>)[key];
    if (isSkipped(item)) continue;
    const { text, secret } = keyText(key);
    if (!first) writer.write(",");
    writer.write(text);
    first = false;
    if (!secret) writeValue(writer, item, depth + 1);
  }
  writer.write("}");
}

/** The end of a preview that was cut at its cap (previewValue): the text before it is not the whole value. */
export const CUT_PREVIEW_SUFFIX = /… \(cut at \d+ characters\)$/;

/** A step output as the log shows it: redacted, serialised, capped at `maxChars`. */
export function previewValue(value: unknown, maxChars = PREVIEW_MAX_CHARS): string | null {
  if (value === null || isSkipped(value)) return null;
  const writer = new BoundedJsonWriter(maxChars);
  writeValue(writer, value, 0);
  const text = writer.text();
  return writer.full ? `${text.slice(0, maxChars)}… (cut at ${maxChars} characters)` : text;
}
