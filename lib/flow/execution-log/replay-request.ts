import type { ExecutionLogEntry } from "./execution-log-entry";
import { CUT_PREVIEW_SUFFIX } from "./preview";

/**
 * A logged run's request as an editor's test panel takes it: the body (an automation's trigger
 * payload) as JSON text, the query as a query string, the end user's id. It is the log's preview,
 * never the original: masked values stay masked, and a body the log cut short stays cut (and says so).
 */
export interface ReplayRequest {
  executionId: string;
  source: ExecutionLogEntry["source"];
  startedAt: string;
  /** Pretty-printed when the preview is whole JSON; the cut preview as it is otherwise. */
  bodyText: string;
  /** `a=1&b=2&b=3`; empty for automation runs. */
  queryText: string;
  userId: string | null;
  /** The log kept only the first part of the body: the text is not valid JSON until completed. */
  bodyCut: boolean;
  /** Some values were masked in the log ([redacted], [secret:NAME]) and are loaded masked. */
  masked: boolean;
  /** Characters the database could not store were replaced in the log. */
  sanitized: boolean;
}

/** Why a replay's request could not be loaded (`?replay=` of a run that is not in this project's log). */
export interface ReplayProblem {
  executionId: string;
  message: string;
}

const MASK_PATTERN = /\[redacted\]|\[secret:[A-Z][A-Z0-9_]*\]/;

function queryTextOf(query: unknown): string {
  if (query === null || typeof query !== "object" || Array.isArray(query)) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, typeof item === "string" ? item : JSON.stringify(item));
  }
  // URLSearchParams writes spaces as "+", which the panel's parser reads back the same way.
  return params.toString();
}

function bodyTextOf(preview: string | null): { text: string; cut: boolean } {
  if (preview === null || preview === "") return { text: "{}", cut: false };
  if (CUT_PREVIEW_SUFFIX.test(preview)) return { text: preview, cut: true };
  try {
    return { text: JSON.stringify(JSON.parse(preview), null, 2), cut: false };
  } catch {
    return { text: preview, cut: false };
  }
}

export function replayRequestOf(entry: ExecutionLogEntry): ReplayRequest {
  const request = entry.request;
  const body = bodyTextOf(request?.body ?? null);
  const queryText = queryTextOf(request?.query);
  return {
    executionId: entry.id,
    source: entry.source,
    startedAt: entry.startedAt,
    bodyText: body.text,
    queryText,
    userId: request?.userId ?? null,
    bodyCut: body.cut,
    masked: MASK_PATTERN.test(body.text) || MASK_PATTERN.test(JSON.stringify(request?.query ?? null)),
    sanitized: entry.sanitized === true,
  };
}
