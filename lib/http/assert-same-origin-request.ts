import { AppError } from "@/lib/errors";
import { getConfig } from "@/lib/config";

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);
/** Bodies a browser form cannot send cross-origin without a preflight are JSON; uploads are multipart. */
const ACCEPTED_BODY_TYPES = /^(?:application\/(?:[\w.+-]+\+)?json|multipart\/form-data)\s*(?:;|$)/i;

function dashboardOrigins(request: Request): Set<string> {
  const config = getConfig();
  const origins = new Set<string>([new URL(request.url).origin]);
  for (const url of [config.NEXTAUTH_URL, config.APP_URL]) if (url) origins.add(new URL(url).origin);
  return origins;
}

function hasBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return (length !== null && length !== "0") || request.headers.has("transfer-encoding");
}

/**
 * CSRF defence for requests authenticated by the dashboard's session cookie (API-key calls carry
 * their credential explicitly and are never checked). A state-changing request is accepted only
 * when it comes from the dashboard's own origin: `Origin` when the browser sends it (a sandboxed
 * invocation answer sends `null`, which never matches), else `Sec-Fetch-Site`. A request with
 * neither header is not from a browser that would attach the cookie on its own — the rule of Go's
 * `http.CrossOriginProtection` — so scripts holding a session cookie keep working.
 *
 * A body must also be JSON (or a multipart upload): `text/plain` and form-encoded bodies are what
 * a cross-site HTML form can send without a preflight, so they are refused even from a same-site
 * page on another port, where `SameSite=Lax` still sends the cookie.
 */
export function assertSameOriginRequest(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    if (!dashboardOrigins(request).has(origin)) throw new AppError("forbidden", "cross-origin request refused: the dashboard session only works from the dashboard");
  } else {
    const site = request.headers.get("sec-fetch-site");
    if (site !== null && site !== "same-origin" && site !== "none") {
      throw new AppError("forbidden", "cross-site request refused: the dashboard session only works from the dashboard");
    }
  }
  if (hasBody(request) && !ACCEPTED_BODY_TYPES.test(request.headers.get("content-type") ?? "")) {
    throw new AppError("unsupported_media_type", "send the body as application/json");
  }
}
