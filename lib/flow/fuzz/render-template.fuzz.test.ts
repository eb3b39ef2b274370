import { describe, expect, it } from "vitest";
import { RESPONSE_CONTENT_TYPES } from "@/lib/endpoints/endpoint-definition";
import { renderResponseBody, renderResponseHeaders } from "@/lib/endpoints/invoke/render-response";
import type { FlowContext } from "@/lib/flow/engine/context";
import { MISSING, parseTemplate, resolvePlaceholder, stringifyTemplateValue, type Placeholder } from "@/lib/flow/engine/render-template";
import {
  assertPrototypesUntouched,
  expectOnlyAppErrors,
  fuzzBaseSeed,
  fuzzCaseCount,
  randomContext,
  randomPath,
  randomPlaceholder,
  randomString,
  runCases,
  snapshotPrototypes,
  type Random,
} from "./fuzz-support";

/**
 * Fuzz of the response renderer for every content type (security issue 9, item 11) over random
 * contexts and templates: nothing but an AppError leaves it, JSON answers always parse, every value
 * inserted into HTML or XML comes out escaped (and decodes back to itself), every CSV value stays
 * one neutralised field, headers never carry a line break, and no prototype is touched.
 */

const BASE_SEED = fuzzBaseSeed(0x5eed_0009);
const CASES = fuzzCaseCount(800);
// Case seeds that once found a bug, replayed on every run. 1261816318: a body nested a few
// thousand levels deep made JSON.stringify overflow the stack while rendering (a RangeError where
// an AppError belongs).
const REGRESSION_SEEDS = [1_261_816_318];

/** Owner text that is plain in every content type: no markup, quotes, separators or braces. */
const SAFE_TEXT = ["Hello ", " ", "Total: ", "a", "-", ":", "!", " = ", "(x)", "@", "/", "+", "\n"];

const MARKUP_ENTITY = /&(amp|lt|gt|quot|#39);/g;
const MARKUP_DECODED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const FORMULA_LEAD = /^[=+\-@\t\r]/;

function markupTemplate(random: Random, context: FlowContext): string {
  let template = "";
  for (let i = random.between(1, 6); i > 0; i--) template += random.chance(0.5) ? random.pick(SAFE_TEXT) : randomPlaceholder(random, context);
  return template;
}

function garbageTemplate(random: Random, context: FlowContext): string {
  const pieces = ["{", "}", "{{", "}}", '"', "'", ",", "<", ">", "]]>", "[", "]", ":", "\\", " ", "\n", "&"];
  let template = "";
  for (let i = random.between(1, 10); i > 0; i--) {
    const roll = random.float();
    template += roll < 0.35 ? randomPlaceholder(random, context) : roll < 0.7 ? random.pick(pieces) : randomString(random);
  }
  return template;
}

function decodeMarkup(text: string): string {
  return text.replace(MARKUP_ENTITY, (_entity, name: string) => MARKUP_DECODED[name] ?? "");
}

function render(contentType: (typeof RESPONSE_CONTENT_TYPES)[number], template: string, context: FlowContext) {
  return expectOnlyAppErrors(() => renderResponseBody(contentType, template, context));
}

/** Parses RFC 4180 text strictly: a quote may only open a field or be doubled inside one. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [[]];
  let field = "";
  let quoted = false;
  let closedQuote = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else {
        quoted = false;
        closedQuote = true;
      }
      continue;
    }
    if (char === "," || char === "\n") {
      rows[rows.length - 1]?.push(field);
      if (char === "\n") rows.push([]);
      field = "";
      closedQuote = false;
    } else if (closedQuote) throw new Error(`text after a closing quote at ${i}`);
    else if (char === '"') {
      if (field !== "") throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
    } else field += char;
  }
  if (quoted) throw new Error("an unclosed quoted field");
  rows[rows.length - 1]?.push(field);
  return rows;
}

function onlyPlaceholder(text: string): Placeholder | null {
  const [part, ...rest] = parseTemplate(text).parts;
  return rest.length === 0 && part !== undefined && typeof part !== "string" ? part : null;
}

function checkMarkup(random: Random, context: FlowContext): void {
  const template = markupTemplate(random, context);
  const plain = render("text/plain", template, context);
  for (const contentType of ["text/html", "application/xml"] as const) {
    const rendered = render(contentType, template, context);
    if ("error" in plain || "error" in rendered) {
      expect("error" in rendered, `${contentType} fails exactly when plain text fails: ${template}`).toBe("error" in plain);
      continue;
    }
    const output = rendered.value;
    expect(output, `${contentType} output of ${template} holds raw markup`).not.toMatch(/[<>"']/);
    expect(output.replace(MARKUP_ENTITY, ""), `${contentType}: every & starts an entity`).not.toContain("&");
    const expected = contentType === "application/xml" ? plain.value.replace(XML_FORBIDDEN, "\uFFFD") : plain.value;
    expect(decodeMarkup(output), `${contentType} decodes back to the plain rendering of ${template}`).toBe(expected);
    expect(output.length).toBeLessThanOrEqual(6 * plain.value.length);
    if (contentType === "application/xml") expect(output).not.toMatch(XML_FORBIDDEN);
  }
}

function checkCsv(random: Random, context: FlowContext): void {
  const expectedRows: Array<Array<{ text: string; number: boolean }>> = [];
  const lines: string[] = [];
  for (let row = random.between(1, 3); row > 0; row--) {
    const fields: Array<{ text: string; number: boolean }> = [];
    const written: string[] = [];
    for (let column = random.between(1, 4); column > 0; column--) {
      if (random.chance(0.15)) {
        written.push("label");
        fields.push({ text: "label", number: false });
        continue;
      }
      const placeholderText = random.chance(0.8) ? `{{${randomPath(random, context)}}}` : `{{ ${randomPath(random, context)} }}`;
      const placeholder = onlyPlaceholder(placeholderText);
      const value = placeholder === null ? MISSING : resolvePlaceholder(context, placeholder);
      written.push(placeholderText);
      if (value === MISSING) fields.push({ text: placeholderText, number: false });
      else {
        const text = expectOnlyAppErrors(() => stringifyTemplateValue(value));
        if ("error" in text) return;
        fields.push({ text: text.value, number: typeof value === "number" });
      }
    }
    lines.push(written.join(","));
    expectedRows.push(fields);
  }
  const template = lines.join("\n");
  const rendered = render("text/csv", template, context);
  if ("error" in rendered) throw rendered.error;
  const rows = parseCsv(rendered.value);
  expect(rows.length, `rows of ${template}`).toBe(expectedRows.length);
  rows.forEach((fields, rowIndex) => {
    const expected = expectedRows[rowIndex] ?? [];
    expect(fields.length, `fields of row ${rowIndex} of ${template}`).toBe(expected.length);
    fields.forEach((field, column) => {
      const { text, number } = expected[column] ?? { text: "", number: false };
      if (!number) expect(field, `field ${rowIndex}.${column} starts a formula`).not.toMatch(FORMULA_LEAD);
      const unguarded = !number && FORMULA_LEAD.test(text) ? field.replace(/^'/, "") : field;
      expect(unguarded, `field ${rowIndex}.${column} of ${template}`).toBe(text);
    });
  });
}

function checkJson(random: Random, context: FlowContext): void {
  // Values inside string literals can never break the document: it parses to the skeleton.
  const placeholders = Array.from({ length: random.between(1, 4) }, () => `{{${randomPath(random, context)}}}`);
  const template = `{${placeholders.map((placeholder, index) => `"k${index}": "<${placeholder}>"`).join(", ")}, "n": [1]}`;
  const rendered = render("application/json", template, context);
  if ("error" in rendered) return;
  const parsed = JSON.parse(rendered.value) as Record<string, unknown>;
  expect(Object.keys(parsed), template).toEqual([...placeholders.map((_, index) => `k${index}`), "n"]);
  placeholders.forEach((placeholderText, index) => {
    const placeholder = onlyPlaceholder(placeholderText);
    const value = placeholder === null ? MISSING : resolvePlaceholder(context, placeholder);
    expect(parsed[`k${index}`]).toBe(`<${value === MISSING ? placeholderText : stringifyTemplateValue(value)}>`);
  });
}

function checkGarbage(random: Random, context: FlowContext): void {
  const template = garbageTemplate(random, context);
  for (const contentType of RESPONSE_CONTENT_TYPES) {
    const rendered = render(contentType, template, context);
    if (contentType === "application/json" && "value" in rendered) expect(() => JSON.parse(rendered.value), template).not.toThrow();
  }
  const headers = expectOnlyAppErrors(() => renderResponseHeaders({ "x-a": template, "x-b": randomPlaceholder(random, context) }, context));
  if ("value" in headers) for (const value of Object.values(headers.value)) expect(value).not.toMatch(/[\r\n\0]/);
}

describe("fuzz: response rendering for every content type", () => {
  it(`holds its properties over ${CASES} random contexts and templates (base FUZZ_SEED=${BASE_SEED})`, () => {
    console.info(`render-template fuzz: base FUZZ_SEED=${BASE_SEED}`);
    expect(Number.isInteger(BASE_SEED)).toBe(true);
    const prototypes = snapshotPrototypes();
    const ran = runCases({ baseSeed: BASE_SEED, count: CASES, regressionSeeds: REGRESSION_SEEDS }, (random) => {
      const context = randomContext(random, { deepChance: 0.05 });
      checkMarkup(random, context);
      checkCsv(random, context);
      checkJson(random, context);
      checkGarbage(random, context);
      assertPrototypesUntouched(prototypes);
    });
    expect(ran).toBe(CASES + REGRESSION_SEEDS.length);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
