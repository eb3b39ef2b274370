import { getConfig } from "@/lib/config";
import { getAppUrl } from "@/lib/app-url";

/**
 * The separate origin for what owners publish (INVOCATION_URL), the way GitHub serves user files from
 * githubusercontent.com: on that host only the public surface of projects answers — invocations, form
 * posts, the end-user auth routes and pages, and the static files those pages load. The dashboard,
 * next-auth and the management API answer 404 there, and requests there reach the application
 * without the Cookie header, so the dashboard's session is never read nor set on that host.
 * server/start.ts applies this before Next; proxy.ts applies it inside Next (serverless hosts).
 */
/** `/api/projects/<id>/fn/<slug>`: the invocation path (lib/endpoints/invoke/invoke-endpoint.ts). */
export const INVOCATION_PATH = /^\/api\/projects\/([^/]+)\/fn\/([^/]+)\/?$/;

/** `/api/projects/<id>/forms/<form>`: the public form intake (lib/forms); it sets the invocation sandbox itself. */
export const FORM_INTAKE_PATH = /^\/api\/projects\/[^/]+\/forms(?:\/|$)/;

/** `/api/projects/<id>/records/<schema>[/<recordId>]`: the records API (app/api/projects/[projectId]/records). */
export const RECORDS_API_PATH = /^\/api\/projects\/([^/]+)\/records\/([^/]+)(?:\/([^/]+))?$/;

const SERVED_ON_INVOCATION_ORIGIN: readonly RegExp[] = [
  INVOCATION_PATH,
  // Form posts of owners' pages.
  FORM_INTAKE_PATH,
  // End users' own auth API: /api/projects/<id>/auth/<schema>/<action>
  /^\/api\/projects\/[^/]+\/auth\/[^/]+\/[^/]+\/?$/,
  // The pages end users reach from their emails: /auth/<projectId>/<schema>/<page>
  /^\/auth\/[^/]+\/[^/]+\/[^/]+\/?$/,
  // The scripts and stylesheets of those pages.
  /^\/_next\/static\//,
];

/**
 * A path Next might resolve to another route than the one it looks like (`..`, encoded dots,
 * slashes or backslashes) is refused outright on the invocation origin: none of its own paths
 * needs them.
 */
const AMBIGUOUS_PATH = /(?:^|\/)\.\.?(?:\/|$)|%2e|%2f|%5c|\\/i;

export type OriginRoute =
  /** No separate origin is configured, or the request is for another host: served as always. */
  | "default"
  /** On the invocation origin, a path it serves: served without the Cookie header. */
  | "invocation_origin"
  /** On the invocation origin, anything else: 404. */
  | "not_found";

/** `host[:port]` lowercased, without a default port or a trailing dot, for comparing Host headers. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/:(?:80|443)$/, "")
    .replace(/\.$/, "");
}

let cachedHost: { url: string | undefined; host: string | null } | undefined;

/** The invocation origin's normalized host, or null when INVOCATION_URL is not set. */
export function configuredInvocationHost(): string | null {
  const url = getConfig().INVOCATION_URL;
  if (!cachedHost || cachedHost.url !== url) cachedHost = { url, host: url ? normalizeHost(new URL(url).host) : null };
  return cachedHost.host;
}

/**
 * Where a request goes by its Host header and path. `pathname` is the path as received, before any
 * normalization (server/start.ts) or after the URL parser's (proxy.ts); both are checked the same way.
 */
export function routeByOrigin(hostHeader: string | null | undefined, pathname: string, invocationHost: string | null = configuredInvocationHost()): OriginRoute {
  if (invocationHost === null || !hostHeader || normalizeHost(hostHeader) !== invocationHost) return "default";
  if (AMBIGUOUS_PATH.test(pathname)) return "not_found";
  return SERVED_ON_INVOCATION_ORIGIN.some((pattern) => pattern.test(pathname)) ? "invocation_origin" : "not_found";
}

/** The base of the URLs endpoints answer at, as the dashboard shows them: INVOCATION_URL when set. */
export function getInvocationBaseUrl(): string {
  return getConfig().INVOCATION_URL?.replace(/\/+$/, "") ?? getAppUrl();
}

/** `<base>/api/projects/<projectId>/fn/`: an endpoint's URL is this and its slug. */
export function invocationBase(projectId: string): string {
  return `${getInvocationBaseUrl()}/api/projects/${projectId}/fn/`;
}
