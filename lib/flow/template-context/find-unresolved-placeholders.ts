import { isArrayIndexSegment, scanPlaceholders, TEMPLATE_ROOTS, type Placeholder } from "@/lib/flow/engine/render-template";
import type { ContextRoot, TemplateContext } from "./build-template-context";
import { describeShape, NUMBER_SHAPE, type ValueShape } from "./value-shape";

/** A placeholder that cannot resolve where it is written, with where it stands in the template. */
export interface UnresolvedPlaceholder {
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

const READABLE_ROOTS = TEMPLATE_ROOTS.filter((root) => root !== "secrets").join(", ");

/** Why a path cannot be read from a shape, or null when it can (or when nothing is known below). */
function pathProblem(shape: ValueShape, segments: readonly string[], start: string): string | null {
  let current = shape;
  let where = start;
  for (const segment of segments) {
    switch (current.kind) {
      case "unknown":
        return null;
      case "null":
        return current.note;
      case "object": {
        const next = current.fields.get(segment);
        if (next === undefined) return `${where} (${describeShape(current)}) has no field "${segment}"${current.note ? `: ${current.note}` : ""}`;
        current = next;
        break;
      }
      case "array":
        if (segment === "length") current = NUMBER_SHAPE;
        else if (isArrayIndexSegment(segment)) current = current.items;
        else return `${where} is a ${describeShape(current)}: read an item with ${where}.0.${segment} or the count with .length`;
        break;
      case "text":
        if (segment !== "length") return `${where} is ${describeShape(current)}: only .length can follow it`;
        current = NUMBER_SHAPE;
        break;
      case "number":
      case "boolean":
        return `${where} is ${current.kind === "number" ? "a number" : "true or false"}: nothing can follow it`;
    }
    where = `${where}.${segment}`;
  }
  return null;
}

function stepProblem(context: TemplateContext, path: readonly string[]): string | null {
  const [name, ...rest] = path;
  if (name === undefined) return null;
  const step = context.steps.get(name);
  if (step === undefined) return `no step has the output name "${name}"`;
  const position = `step ${step.index + 1} (${name})`;
  if (step.availability === "later") return `${position} runs after this one, so its output does not exist yet`;
  if (step.availability === "self") return `this is ${position}'s own output, which exists only after it ran`;
  if (step.availability === "disabled") return `${position} is disabled, so it leaves no output`;
  return pathProblem(step.shape, rest, `steps.${name}`);
}

function placeholderProblem(context: TemplateContext, placeholder: Placeholder): string | null {
  // Secrets are resolved by the outbound runners; where they may appear is the placement rule's to say.
  if (placeholder.root === "secrets") return null;
  if (placeholder.root === "steps") return stepProblem(context, placeholder.path);
  const shape = context.roots.get(placeholder.root as ContextRoot);
  return shape === undefined ? null : pathProblem(shape, placeholder.path, placeholder.root);
}

function literalProblem(inner: string): string {
  const root = inner.trim().split(".")[0] ?? "";
  if (!(TEMPLATE_ROOTS as readonly string[]).includes(root)) return `"${root}" is not something a template can read; placeholders start with ${READABLE_ROOTS}`;
  return "is not a placeholder path (names joined by dots, without spaces); it stays in the text as written";
}

/**
 * The placeholders of a template that cannot resolve in a context: an unknown root, a step name no
 * step has, a later, disabled or the step's own output, a field the schema lacks, a path into text,
 * a number or a list without an index. Paths into values whose shape is unknown before a run (a
 * transform's result, an HTTP reply body, a free-form request body, relations and JSON fields) are
 * never reported: the lint warns only where it knows.
 */
export function findUnresolvedPlaceholders(template: string, context: TemplateContext): UnresolvedPlaceholder[] {
  const found: UnresolvedPlaceholder[] = [];
  for (const match of scanPlaceholders(template)) {
    const message = match.placeholder === null ? literalProblem(match.inner) : placeholderProblem(context, match.placeholder);
    if (message !== null) found.push({ raw: match.raw, start: match.start, end: match.end, message });
  }
  return found;
}
