/**
 * CORS per endpoint: `allowedOrigins` is `[]` (no browser calls from other origins), `["*"]` (any)
 * or a list of origins. Requests from other origins simply get no grant; server-to-server calls
 * (no Origin header) are unaffected.
 */
export const EXPOSED_HEADERS = "x-cache, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after";

export function allowedOriginFor(origin: string | null, allowedOrigins: readonly string[]): string | null {
  if (!origin) return null;
  if (allowedOrigins.includes("*")) return "*";
  return allowedOrigins.includes(origin) ? origin : null;
}

/** Headers granting a simple or actual request; empty when the origin is not allowed. */
export function corsHeaders(origin: string | null, allowedOrigins: readonly string[], extraExposed: readonly string[] = []): Record<string, string> {
  const allowed = allowedOriginFor(origin, allowedOrigins);
  if (!allowed) return allowedOrigins.length > 0 && !allowedOrigins.includes("*") ? { vary: "origin" } : {};
  const exposed = extraExposed.length ? `${EXPOSED_HEADERS}, ${extraExposed.join(", ")}` : EXPOSED_HEADERS;
  return allowed === "*"
    ? { "access-control-allow-origin": "*", "access-control-expose-headers": exposed }
    : { "access-control-allow-origin": allowed, vary: "origin", "access-control-expose-headers": exposed };
}

const SAFE_REQUEST_HEADER = /^[a-z0-9-]{1,64}$/;

/** The answer to a preflight for an endpoint that exists with the requested method. */
export function preflightHeaders(origin: string | null, allowedOrigins: readonly string[], method: string, requestedHeaders: string | null): Record<string, string> {
  const allowed = allowedOriginFor(origin, allowedOrigins);
  if (!allowed) return allowedOrigins.length > 0 && !allowedOrigins.includes("*") ? { vary: "origin" } : {};
  const headers = (requestedHeaders ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => SAFE_REQUEST_HEADER.test(name));
  const allowHeaders = [...new Set(["authorization", "content-type", ...headers])].join(", ");
  return {
    "access-control-allow-origin": allowed,
    "access-control-allow-methods": `${method}, OPTIONS`,
    "access-control-allow-headers": allowHeaders,
    "access-control-max-age": "600",
    ...(allowed === "*" ? {} : { vary: "origin" }),
  };
}
