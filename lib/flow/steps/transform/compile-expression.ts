import { compile, tokenize } from "@jmespath-community/jmespath";
import { AppError } from "@/lib/errors";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { functionSignatures, type ExpressionNode } from "./guarded-interpreter";

/**
 * Compiles a transform's JMESPath expression once: checked when the flow is saved (length,
 * nesting, syntax, known functions and their argument counts) and cached by its text for runs.
 */

const OPENERS = new Set(["Lbracket", "Filter", "Lbrace", "Lparen"]);
const CLOSERS = new Set(["Rbracket", "Rbrace", "Rparen"]);
// The interpreter recurses once per tree level; this keeps any accepted expression far from the stack limit.
const MAX_TREE_DEPTH = 200;

const CACHE_MAX_ENTRIES = 1_000;
const compiledCache = new Map<string, ExpressionNode>();

function treeDepth(root: ExpressionNode): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[root, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_TREE_DEPTH) return deepest;
    if (node === null || typeof node !== "object") continue;
    for (const [key, child] of Object.entries(node)) {
      if (key === "value" && (node as { type?: string }).type === "Literal") continue;
      if (Array.isArray(child)) for (const item of child) pending.push([item, depth + 1]);
      else if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
    }
  }
  return deepest;
}

function checkFunctions(root: ExpressionNode): string | null {
  const table = functionSignatures();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== "object") continue;
    const typed = node as { type?: string; name?: string; children?: unknown[] };
    if (typed.type === "Literal") continue;
    if (typed.type === "Function" && typed.name !== undefined) {
      const entry = table[typed.name];
      if (entry === undefined) return `unknown function ${typed.name}()`;
      const signature = entry._signature;
      const required = signature.filter((argument) => !argument.optional).length;
      const variadic = signature[signature.length - 1]?.variadic ?? false;
      const given = typed.children?.length ?? 0;
      if (given < required || (!variadic && given > signature.length)) {
        const expected = variadic ? `at least ${required}` : required === signature.length ? `${required}` : `${required} to ${signature.length}`;
        return `${typed.name}() takes ${expected} argument${signature.length === 1 && !variadic ? "" : "s"}, got ${given}`;
      }
    }
    for (const child of Object.values(node)) {
      if (Array.isArray(child)) pending.push(...child);
      else if (child !== null && typeof child === "object") pending.push(child);
    }
  }
  return null;
}

function compileChecked(expression: string): { ast: ExpressionNode } | { error: string } {
  if (expression.trim() === "") return { error: "expression is empty" };
  if (expression.length > FLOW_LIMITS.maxExpressionLength) {
    return { error: `expression is longer than ${FLOW_LIMITS.maxExpressionLength} characters` };
  }
  let ast: ExpressionNode;
  let depth = 0;
  try {
    for (const token of tokenize(expression)) {
      if (OPENERS.has(token.type)) depth += 1;
      else if (CLOSERS.has(token.type)) depth -= 1;
      if (depth > FLOW_LIMITS.maxExpressionNesting) {
        return { error: `expression nests brackets, braces or parentheses deeper than ${FLOW_LIMITS.maxExpressionNesting} levels` };
      }
    }
    ast = compile(expression);
  } catch (error) {
    return { error: `invalid JMESPath expression: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (treeDepth(ast) > MAX_TREE_DEPTH) return { error: "expression is nested too deeply" };
  const functionProblem = checkFunctions(ast);
  if (functionProblem !== null) return { error: `invalid JMESPath expression: ${functionProblem}` };
  return { ast };
}

/** Why an expression cannot be saved, or null when it compiles within the limits. */
export function checkExpression(expression: string): string | null {
  if (compiledCache.has(expression)) return null;
  const result = compileChecked(expression);
  if ("error" in result) return result.error;
  remember(expression, result.ast);
  return null;
}

function remember(expression: string, ast: ExpressionNode): void {
  if (compiledCache.size >= CACHE_MAX_ENTRIES) {
    const oldest = compiledCache.keys().next().value;
    if (oldest !== undefined) compiledCache.delete(oldest);
  }
  compiledCache.set(expression, ast);
}

/** The compiled expression, from the cache after the first call. Throws AppError("validation_failed"). */
export function compileExpressionOrThrow(expression: string): ExpressionNode {
  const cached = compiledCache.get(expression);
  if (cached !== undefined) return cached;
  const result = compileChecked(expression);
  if ("error" in result) throw new AppError("validation_failed", result.error);
  remember(expression, result.ast);
  return result.ast;
}
