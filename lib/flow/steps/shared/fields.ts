import { z } from "zod";
import { hasPlaceholders } from "@/lib/flow/engine/render-template";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { parseFilterLines } from "./filter-lines";

/** Shared field schemas of step settings (browser-safe). */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
// Set by the HTTP client from the URL and body; the outbound guard refuses them too.
const CLIENT_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer", "expect", "proxy-connection"]);

export const schemaNameSchema = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    if (name === "") ctx.addIssue({ code: "custom", message: "choose a schema" });
    else if (!IDENTIFIER.test(name)) ctx.addIssue({ code: "custom", message: "must be a schema name (letters, digits, _ and -, starting with a letter or _)" });
  });

export const fieldNameSchema = z.string().regex(IDENTIFIER, "must be a field name (letters, digits, _ and -, starting with a letter or _)");

/** A text template: placeholders allowed, at most `max` characters. */
export function templateSchema(max = 10_000) {
  return z.string().max(max, `must be at most ${max} characters`);
}

/** An object whose keys are checked with a message of our own (zod's says only "Invalid key in record"). */
function recordWithKeys<V extends z.ZodType>(value: V, keyProblem: (key: string) => string | null, maxKeys: number, noun: string) {
  return z.record(z.string(), value).superRefine((record, ctx) => {
    const keys = Object.keys(record);
    if (keys.length > maxKeys) ctx.addIssue({ code: "custom", message: `at most ${maxKeys} ${noun}` });
    for (const key of keys) {
      const problem = keyProblem(key);
      if (problem !== null) ctx.addIssue({ code: "custom", path: [key], message: problem });
    }
  });
}

/** Record field values: field name → template (or any JSON value, rendered element by element). */
export const fieldValuesSchema = recordWithKeys(
  z.json(),
  (key) => (IDENTIFIER.test(key) ? null : "must be a field name (letters, digits, _ and -, starting with a letter or _)"),
  200,
  "fields",
);

/** Extra request headers: name → template. A literal CR or LF is refused here; a rendered one fails the step. */
export const headersSchema = recordWithKeys(
  templateSchema(8_192).refine((value) => !/[\r\n\0]/.test(value), "must not contain line breaks"),
  (name) => (!HEADER_NAME.test(name) ? "must be a valid header name" : CLIENT_HEADERS.has(name.toLowerCase()) ? "is set by the HTTP client and cannot be configured" : null),
  FLOW_LIMITS.maxHeaders,
  "headers",
);

/** A URL template: either has placeholders or is an http(s) URL already. */
export const urlTemplateSchema = templateSchema(2_048)
  .trim()
  .min(1, "enter a URL")
  .refine((url) => hasPlaceholders(url) || isHttpUrl(url), "must be an http:// or https:// URL");

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The `filters` setting: text with one `field=<template>` per line. */
export const filterLinesSchema = z
  .string()
  .max(10_000, "must be at most 10000 characters")
  .superRefine((text, ctx) => {
    const parsed = parseFilterLines(text);
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error });
  });
