import { invocationErrorBody } from "@/lib/errors";
import { INVOCATION_PATH } from "@/lib/http/invocation-origin";
import { INVOCATION_SECURITY_HEADERS } from "@/lib/http/security-headers";
import { logServerError } from "@/lib/http/log-server-error";
import { runProjectFlow } from "@/lib/runs/run-project-flow";
import { authenticateCaller } from "./authenticate-caller";
import { corsHeaders, preflightHeaders } from "./cors";
import { earlyWorkApplies, startEarlyInvocationWork } from "./early-invocation-work";
import { getProjectRuntime, peekProjectRuntime, type ProjectRuntime, type RuntimeEndpoint } from "./project-runtime";
import { rateLimitCaller } from "./rate-limit-caller";
import { queryObject, readInvocationBody, readInvocationJson } from "./read-invocation-body";
import { rejectInvalidInput } from "./reject-invalid-input";
import { answerForRun } from "./answer-for-run";
import { isReservedResponseHeader } from "../endpoint-definition";
import { readCachedResponse, responseCacheKey, produceOnMiss, storeCachedResponse, type CachedResponse } from "./response-cache";
import { countEndpointCall } from "@/lib/endpoint-analytics/count-endpoint-call";
import { answerableError } from "@/lib/http/answerable-error";

/**
 * The invocation core: a Fetch handler with no framework imports. The App Router route handler and
 * the production server's fast path both call it (docs/DESIGN.md section 4):
 * match → authenticate → rate limit → CORS → cache lookup → read body → run flow → render →
 * store cache entry (the rate limit and the cache lookup start beside the generation read when this
 * instance already holds the project: early-invocation-work.ts); runProjectFlow (lib/runs) runs the flow and queues its execution log after the
 * response, through `waitUntil`.
 */
export interface InvocationHooks {
  /** Keeps work that runs after the response alive: Next's after(), the server's tracked promises. */
  waitUntil(task: Promise<unknown>): void;
  /**
   * The Response class answers are built with; the global one by default. The production server
   * passes its Node adapter's lightweight Response, which the adapter writes to the socket as given
   * instead of reading a web stream back (server/adapter-response.ts).
   */
  Response?: typeof Response;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
const JSON_TYPE = "application/json; charset=utf-8";

interface Outcome extends CachedResponse {
  executionId: string | null;
  cacheable: boolean;
}

/*
 * Every answer ends with INVOCATION_SECURITY_HEADERS, spread last: whatever an endpoint's stored
 * headers or a grant says, what an owner wrote runs sandboxed in an opaque origin (issue 9).
 */
function jsonResponse(Answer: typeof Response, status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Answer(JSON.stringify(body), { status, headers: { "content-type": JSON_TYPE, ...headers, ...INVOCATION_SECURITY_HEADERS } });
}

const NOT_FOUND_BODY = JSON.stringify({ error: "not found" });
const NOT_FOUND_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "content-type": JSON_TYPE, ...INVOCATION_SECURITY_HEADERS });

function notFound(Answer: typeof Response): Response {
  return new Answer(NOT_FOUND_BODY, { status: 404, headers: NOT_FOUND_HEADERS });
}

function preflight(Answer: typeof Response, runtime: ProjectRuntime, slug: string, request: Request): Response {
  const method = (request.headers.get("access-control-request-method") ?? "").toUpperCase();
  const endpoint = runtime.routes.get(`${method} ${slug}`);
  if (!endpoint) return notFound(Answer);
  const headers = preflightHeaders(request.headers.get("origin"), endpoint.definition.allowedOrigins, method, request.headers.get("access-control-request-headers"));
  return new Answer(null, { status: 204, headers: { ...headers, ...INVOCATION_SECURITY_HEADERS } });
}

async function execute(
  request: Request,
  url: URL,
  runtime: ProjectRuntime,
  endpoint: RuntimeEndpoint,
  user: Record<string, unknown> | null,
  hooks: InvocationHooks,
): Promise<Outcome> {
  const definition = endpoint.definition;
  const hasBody = BODY_METHODS.has(request.method);
  let body: Record<string, unknown> = {};
  let query: Record<string, unknown> = queryObject(url.searchParams);
  if (endpoint.input) {
    // A declared body reports a non-object body as an issue, beside the others, rather than refusing it alone.
    const raw = hasBody ? (endpoint.input.checksBody ? await readInvocationJson(request) : await readInvocationBody(request)) : undefined;
    const verdict = endpoint.input.check(query as Record<string, string | string[]>, raw === undefined && hasBody ? {} : raw);
    if (!verdict.ok) {
      const userId = typeof user?.id === "string" || typeof user?.id === "number" ? String(user.id) : null;
      const rejected = rejectInvalidInput({
        project: runtime.project,
        store: runtime.store,
        source: { type: "endpoint", endpointId: definition.id, method: definition.method, slug: definition.slug },
        issues: verdict.issues,
        request: { query, body: raw ?? null, userId },
      });
      hooks.waitUntil(rejected.logged);
      return { ...rejected.response, executionId: rejected.executionId, cacheable: false };
    }
    body = (raw ?? {}) as Record<string, unknown>;
    query = verdict.query;
  } else if (hasBody) body = await readInvocationBody(request);
  const { executionId, run, answer } = await runProjectFlow({
    project: runtime.project,
    schemas: runtime.schemas,
    store: runtime.store,
    steps: endpoint.steps,
    context: { body, query, user },
    source: { type: "endpoint", endpointId: definition.id, method: definition.method, slug: definition.slug },
    request: { query, body },
    waitUntil: hooks.waitUntil,
    log: "after",
    answer: (result, id) => answerForRun(definition.response, result, id),
  });
  // Only what the caller gets: the value a body was written from stays with the log.
  const { status, contentType, headers, body: text } = answer.response;
  return {
    status,
    contentType,
    headers,
    body: text,
    executionId,
    cacheable: endpoint.cacheable && run?.outcome === "completed" && status >= 200 && status < 300,
  };
}

/** A path segment as text; null for malformed percent-encoding (no such endpoint, not a server error). */
function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * An endpoint's rendered headers without the ones the platform owns. Definitions are validated on
 * save, but rows stored before a name was reserved still hold it. No copy when none is found.
 */
function ownerHeaders(headers: Record<string, string>): Record<string, string> {
  let kept: Record<string, string> | null = null;
  for (const name in headers) {
    if (!isReservedResponseHeader(name)) continue;
    kept ??= { ...headers };
    delete kept[name];
  }
  return kept ?? headers;
}

function toResponse(Answer: typeof Response, outcome: CachedResponse, headers: Record<string, string>): Response {
  return new Answer(outcome.body, {
    status: outcome.status,
    headers: { ...ownerHeaders(outcome.headers), ...headers, "content-type": outcome.contentType, ...INVOCATION_SECURITY_HEADERS },
  });
}

export async function invokeEndpoint(request: Request, hooks: InvocationHooks): Promise<Response> {
  const Answer = hooks.Response ?? Response;
  const startedAt = performance.now();
  // Set once the call has matched an endpoint: from then on every answer is counted, once (lib/endpoint-analytics).
  let called: { projectId: string; endpointId: string } | null = null;
  const url = new URL(request.url);
  const match = INVOCATION_PATH.exec(url.pathname);
  if (!match) return notFound(Answer);
  let corsGrant: Record<string, string> = {};
  try {
    const projectId = decodePathSegment(match[1]!);
    const slug = decodePathSegment(match[2]!);
    if (projectId === null || slug === null) return notFound(Answer);
    const early = startEarlyInvocationWork(request, url, slug, peekProjectRuntime(projectId));
    const runtime = await getProjectRuntime(projectId);
    if (!runtime) return notFound(Answer);
    if (request.method === "OPTIONS") return preflight(Answer, runtime, slug, request);
    const endpoint = runtime.routes.get(`${request.method} ${slug}`);
    if (!endpoint) return notFound(Answer);
    const definition = endpoint.definition;
    called = { projectId: runtime.project.id, endpointId: definition.id };
    corsGrant = corsHeaders(request.headers.get("origin"), definition.allowedOrigins, [...Object.keys(definition.response.headers), "x-execution-id"]);

    const caller = await authenticateCaller(request, definition, runtime, early?.runtime === runtime ? early.caller : undefined);
    const earlyApplies = earlyWorkApplies(early, definition, caller.subject);
    const rateHeaders = earlyApplies ? await early.rateHeaders : await rateLimitCaller({ endpointId: definition.id, auth: definition.auth, subject: caller.subject });
    const common = { ...corsGrant, ...rateHeaders };

    if (!endpoint.cacheable) {
      const outcome = await execute(request, url, runtime, endpoint, caller.user, hooks);
      const answer = toResponse(Answer, outcome, { "cache-control": "no-store", ...common, ...(outcome.executionId ? { "x-execution-id": outcome.executionId } : {}) });
      countEndpointCall({ ...called, status: outcome.status, cacheHit: false, startedAt });
      return answer;
    }

    const cacheControl = `public, max-age=${definition.cacheSeconds}`;
    const key = responseCacheKey(definition.id, definition.version, url.search);
    const cached = await (earlyApplies && early.cacheKey === key && early.cached ? early.cached : readCachedResponse(key));
    if (cached) {
      const answer = toResponse(Answer, cached, { ...common, "cache-control": cacheControl, "x-cache": "hit" });
      countEndpointCall({ ...called, status: cached.status, cacheHit: true, startedAt });
      return answer;
    }
    const { leader, result } = produceOnMiss<Outcome>(
      key,
      async () => {
        const outcome = await execute(request, url, runtime, endpoint, caller.user, hooks);
        if (outcome.cacheable) {
          const { status, contentType, headers, body } = outcome;
          await storeCachedResponse(key, { status, contentType, headers, body }, definition.cacheSeconds);
        }
        return outcome;
      },
      (stored) => ({ ...stored, executionId: null, cacheable: true }),
    );
    const outcome = await result;
    const executionHeader: Record<string, string> = leader && outcome.executionId ? { "x-execution-id": outcome.executionId } : {};
    const answer = toResponse(Answer, outcome, { ...common, ...executionHeader, "cache-control": outcome.cacheable ? cacheControl : "no-store", "x-cache": "miss" });
    countEndpointCall({ ...called, status: outcome.status, cacheHit: false, startedAt });
    return answer;
  } catch (error) {
    // The specification's bodies, without the management APIs' `code` (lib/errors.ts).
    const appError = answerableError(error);
    if (called) countEndpointCall({ ...called, status: appError.status, cacheHit: false, startedAt });
    const logged = appError.status >= 500 ? logServerError("invocation failed", request, appError, error) : {};
    return jsonResponse(Answer, appError.status, invocationErrorBody(appError), { ...corsGrant, ...appError.headers, ...logged });
  }
}
