import { isArrayIndexSegment } from "@/lib/flow/engine/render-template";
import type { ContextRoot, TemplateContext } from "./build-template-context";
import { childShapes, describeShape, NUMBER_SHAPE, type ValueShape } from "./value-shape";

/** One entry of the autocomplete list. */
export interface PlaceholderSuggestion {
  /** The whole path to insert between the braces: `steps.tickets.0.title`. */
  readonly path: string;
  /** The last segment, as the list shows it. */
  readonly label: string;
  /** What the value is: "list of tickets records", "text", "from the last test run". */
  readonly hint: string;
  /** True when the value has fields of its own, so choosing it continues with a dot instead of closing the braces. */
  readonly continues: boolean;
}

const MAX_SUGGESTIONS = 50;
const TYPED = /^[^\s{}]*$/;
const ROOT_HINTS: Record<ContextRoot | "steps", string> = {
  body: "request body",
  query: "query parameters",
  user: "signed-in user",
  trigger: "what started the run",
  steps: "outputs of earlier steps",
};

function readable(shape: ValueShape): boolean {
  if (shape.kind === "null") return false;
  return !(shape.kind === "object" && shape.fields.size === 0 && shape.note !== undefined);
}

// A text's only field is its length, which a placeholder almost never wants: choosing a text closes
// the braces (`{{user.id}}`), and `.length` can still be typed.
function continues(shape: ValueShape): boolean {
  return shape.kind !== "text" && childShapes(shape).length > 0;
}

function shapeBelow(shape: ValueShape, segments: readonly string[]): ValueShape | null {
  let current = shape;
  for (const segment of segments) {
    if (current.kind === "object") {
      const next = current.fields.get(segment);
      if (next === undefined) return null;
      current = next;
    } else if (current.kind === "array" && (segment === "length" || isArrayIndexSegment(segment))) {
      current = segment === "length" ? NUMBER_SHAPE : current.items;
    } else if (current.kind === "text" && segment === "length") {
      current = NUMBER_SHAPE;
    } else {
      return null;
    }
  }
  return current;
}

/**
 * What the autocomplete offers for the text typed after `{{` (`steps.tic` → the earlier steps whose
 * output name starts with "tic"): the readable roots, then the fields of the value the typed path
 * leads to, filtered by the last segment (case-insensitive prefix). Only earlier, enabled steps are
 * offered; their shape is the last test output's when there is one, and a free-form body or query
 * shows the fields of the last test request.
 */
export function listPlaceholderSuggestions(context: TemplateContext, typed: string): PlaceholderSuggestion[] {
  const text = typed.trimStart();
  if (!TYPED.test(text)) return [];
  const segments = text.split(".");
  const partial = (segments.pop() ?? "").toLowerCase();
  const parent = segments.join(".");
  const entries: Array<{ label: string; hint: string; continues: boolean }> = [];

  if (segments.length === 0) {
    for (const [root, known] of context.roots) {
      const shape = context.previewRoots.get(root) ?? known;
      if (readable(known)) entries.push({ label: root, hint: ROOT_HINTS[root], continues: continues(shape) || shape.kind === "unknown" });
    }
    if ([...context.steps.values()].some((step) => step.availability === "available")) entries.push({ label: "steps", hint: ROOT_HINTS.steps, continues: true });
  } else if (segments[0] === "steps" && segments.length === 1) {
    for (const step of context.steps.values()) {
      if (step.availability !== "available") continue;
      const hint = `${describeShape(step.previewShape)} · step ${step.index + 1}${step.fromTestRun ? ", last test run" : ""}`;
      entries.push({ label: step.name, hint, continues: continues(step.previewShape) });
    }
  } else {
    const [root, ...rest] = segments;
    let start: ValueShape | undefined;
    if (root === "steps") {
      const step = context.steps.get(rest.shift() ?? "");
      start = step?.availability === "available" ? step.previewShape : undefined;
    } else {
      start = context.previewRoots.get(root as ContextRoot) ?? context.roots.get(root as ContextRoot);
    }
    const shape = start === undefined ? null : shapeBelow(start, rest);
    for (const [label, child] of shape ? childShapes(shape) : []) entries.push({ label, hint: describeShape(child), continues: continues(child) });
  }

  return entries
    .filter((entry) => entry.label.toLowerCase().startsWith(partial))
    .slice(0, MAX_SUGGESTIONS)
    .map((entry) => ({ ...entry, path: parent === "" ? entry.label : `${parent}.${entry.label}` }));
}
