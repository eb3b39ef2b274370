import { AppError } from "@/lib/errors";
import type { ProjectAction } from "@/lib/auth/permissions";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import { assertSameOriginRequest } from "./assert-same-origin-request";
import { hashApiKey, isWellFormedApiKey } from "@/lib/auth/api-keys/api-key-format";
import { getProjectRuntime, peekProjectRuntime, type ProjectRuntime } from "@/lib/endpoints/invoke/project-runtime";
import { hasPrefix } from "@/lib/ids";
import { authenticateRequest, readBearerToken, type RequestActor } from "./authenticate-request";
import { handleApiError } from "./handle-api-error";
import { enforceManagementRateLimit } from "./management-rate-limit";
import { neededPermissions, requireProjectMember, ruleAllows } from "./project-member";

export interface ProjectRouteContext<P> {
  request: Request;
  params: P;
  project: ProjectRow;
  actor: RequestActor;
  /**
   * The project's runtime (schemas, customer database, automations, from the in-process cache);
   * already loaded for API key calls, loaded on first use otherwise.
   */
  runtime: () => Promise<ProjectRuntime>;
  /** Response.json, or the caller's cheaper equivalent (ProjectRouteRequestContext.json). */
  json: JsonAnswer;
}

export interface JsonAnswerInit {
  status?: number;
  headers?: Record<string, string>;
}

/** Builds a route's JSON answer: a body serialized with JSON.stringify, status 200 unless told. */
export type JsonAnswer = (body: unknown, init?: JsonAnswerInit) => Response;

/** What Next hands a route handler, and what the production server's records fast path adds. */
export interface ProjectRouteRequestContext<P> {
  params: Promise<P>;
  /**
   * Given by server/records-api.ts: answers built with the Fetch adapter's own Response class
   * (server/adapter-response.ts), which the adapter writes to the socket as given, where a web
   * Response is a stream it must read back. Next never gives it; its handlers need the real Response.
   */
  json?: JsonAnswer;
}

const webJsonAnswer: JsonAnswer = (body, init) => Response.json(body, init);

export interface ProjectRouteOptions {
  /** What the route does; with several, any one of them is enough (test runs: create or update)… */
  permission: ProjectAction | ProjectAction[];
  /** …unless every one is needed (imports both create and replace endpoints). */
  requireAll?: boolean;
  /** Routes only dashboard users may call (API key management). */
  sessionOnly?: boolean;
}

type RouteParams = { projectId: string };

interface EarlyRateLimit {
  keyId: string;
  limited: Promise<void>;
}

/**
 * An API key call's rate limit, started before the project's generation is read, for a key the
 * runtime this instance holds knows: the key-value client pipelines the two commands, so the call
 * waits for one round trip to Redis instead of two. It counts when the fresh runtime authenticates
 * the same key; otherwise the limit is taken again in order (a key revoked in between costs one count).
 */
function startEarlyRateLimit(bearer: string, runtime: ProjectRuntime | undefined): EarlyRateLimit | null {
  const key = runtime?.apiKeys.get(hashApiKey(bearer));
  if (!key) return null;
  const limited = enforceManagementRateLimit({ type: "api_key", keyId: key.id, projectId: key.projectId, permissions: key.permissions });
  // Awaited only when it still applies; a 429 for a call that then fails authentication is dropped.
  limited.catch(() => undefined);
  return { keyId: key.id, limited };
}

function notFound(): AppError {
  return new AppError("not_found", "project not found");
}

/**
 * The one wrapper of every project API route: authenticates (API key or dashboard session), resolves
 * the project (404 when it does not exist or is not the caller's — never revealing which), refuses
 * cross-site use of the session cookie (CSRF, lib/http/assert-same-origin-request.ts), checks the
 * permission (403; for a dashboard session with requireProjectMember, the check of the server
 * actions too), rate-limits, and maps every error to the JSON bodies of docs/DESIGN.md.
 */
export function withProjectAuth<P extends RouteParams>(
  handler: (context: ProjectRouteContext<P>) => Promise<Response>,
  options: ProjectRouteOptions,
): (request: Request, context: ProjectRouteRequestContext<P>) => Promise<Response> {
  const needed = neededPermissions(options);
  const joiner = options.requireAll ? " and " : " or ";
  return async (request, context) => {
    try {
      const params = await context.params;
      // A key of the project in the URL is found in its cached runtime, with no platform read; the
      // generation that says the runtime is current is read again only after a bump's message
      // (readProjectGeneration's `watched`), so that a records API write costs no Redis round trip.
      const bearer = readBearerToken(request);
      const keyCall = bearer !== null && isWellFormedApiKey(bearer) && hasPrefix(params.projectId, "project");
      const early = keyCall ? startEarlyRateLimit(bearer, peekProjectRuntime(params.projectId)) : null;
      let runtime = keyCall ? await getProjectRuntime(params.projectId, { watchedGeneration: true }) : null;
      const actor = await authenticateRequest(request, runtime?.apiKeys);
      let project: ProjectRow;
      if (actor.type === "api_key") {
        if (actor.projectId !== params.projectId || !runtime) throw notFound();
        project = runtime.project;
        if (options.sessionOnly) throw new AppError("forbidden", "this action is only available in the dashboard");
        if (!ruleAllows(options, (permission) => (actor.permissions as string[]).includes(permission))) {
          throw new AppError("forbidden", `the API key lacks the permission ${needed.join(joiner)}`);
        }
      } else {
        assertSameOriginRequest(request);
        ({ project } = await requireProjectMember({ projectId: params.projectId, userId: actor.userId, permission: options.permission, requireAll: options.requireAll }));
      }
      if (early && actor.type === "api_key" && actor.keyId === early.keyId) await early.limited;
      else await enforceManagementRateLimit(actor);
      const loadRuntime = async () => {
        runtime ??= await getProjectRuntime(project.id);
        if (!runtime) throw notFound();
        return runtime;
      };
      return await handler({ request, params, project, actor, runtime: loadRuntime, json: context.json ?? webJsonAnswer });
    } catch (error) {
      return handleApiError(error, request);
    }
  };
}
