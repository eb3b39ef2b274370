import { renderValue, type TemplateScope } from "@/lib/flow/engine/render-template";
import type { FlowFilter } from "@/lib/flow/engine/flow-services";

/**
 * Equality filters as the editor writes them: one `field=<template>` per line, blank lines ignored.
 * The value is everything after the first `=`, trimmed; when it is exactly one placeholder the
 * value keeps its type. Values are always compared by equality, as literals.
 */
export interface FilterLine {
  field: string;
  template: string;
}

const FIELD = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const MAX_FILTERS = 20;
const cache = new Map<string, FilterLine[]>();

export type ParsedFilterLines = { ok: true; filters: FilterLine[] } | { ok: false; error: string };

function parse(text: string): ParsedFilterLines {
  const filters: FilterLine[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const equals = line.indexOf("=");
    if (equals === -1) return { ok: false, error: `line ${index + 1}: expected field=value` };
    const field = line.slice(0, equals).trim();
    if (!FIELD.test(field)) return { ok: false, error: `line ${index + 1}: "${field}" is not a field name` };
    filters.push({ field, template: line.slice(equals + 1).trim() });
  }
  if (filters.length > MAX_FILTERS) return { ok: false, error: `at most ${MAX_FILTERS} filters` };
  return { ok: true, filters };
}

/** Parses filter lines once per text. */
export function parseFilterLines(text: string): ParsedFilterLines {
  const cached = cache.get(text);
  if (cached !== undefined) return { ok: true, filters: cached };
  const parsed = parse(text);
  if (parsed.ok) {
    if (cache.size >= 1_000) cache.clear();
    cache.set(text, parsed.filters);
  }
  return parsed;
}

/** Renders parsed filters against the run context. */
export function renderFilters(filters: readonly FilterLine[], scope: TemplateScope): FlowFilter[] {
  return filters.map((filter) => ({ field: filter.field, value: renderValue(filter.template, scope) }));
}
