import type { ErrorIssue } from "@/lib/errors";

/**
 * Helpers for putting a service's validation issues next to the right input. Issue paths are dot
 * paths (`steps.2.expression`, `response.headers.X-Id`, `fields.0.values`).
 */

/** The messages of issues at `path` or below it. */
export function messagesAt(issues: readonly ErrorIssue[], path: string): string[] {
  return issues.filter((issue) => issue.path === path || issue.path.startsWith(`${path}.`)).map((issue) => issue.message);
}

/** The first message at `path` or below, capitalised, or undefined. */
export function messageAt(issues: readonly ErrorIssue[], path: string): string | undefined {
  const [first] = messagesAt(issues, path);
  return first === undefined ? undefined : capitalize(first);
}

/** The issues below `prefix.`, with that prefix removed from their paths. */
export function issuesUnder(issues: readonly ErrorIssue[], prefix: string): ErrorIssue[] {
  return issues.flatMap((issue) => {
    if (issue.path === prefix) return [{ path: "", message: issue.message }];
    return issue.path.startsWith(`${prefix}.`) ? [{ path: issue.path.slice(prefix.length + 1), message: issue.message }] : [];
  });
}

/** The issues whose first path segment is none of `known`, written "path: message" for a summary list. */
export function unplacedIssues(issues: readonly ErrorIssue[], known: ReadonlySet<string>): string[] {
  return issues.filter((issue) => !known.has(issue.path.split(".")[0] ?? "")).map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : capitalize(issue.message)));
}

export function capitalize(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text;
}
