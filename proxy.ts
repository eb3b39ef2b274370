import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "@/lib/config";
import { AppError, errorBody } from "@/lib/errors";
import { servedOverHttps } from "@/lib/http/served-over-https";
import { FORM_INTAKE_PATH, INVOCATION_PATH, routeByOrigin } from "@/lib/http/invocation-origin";
import { API_SECURITY_HEADERS, AUTH_ROUTE_SECURITY_HEADERS, INVOCATION_SECURITY_HEADERS, dashboardPageHeaders, newNonce } from "@/lib/http/security-headers";

/**
 * Next holds a request body for its proxy and hands route handlers only the first
 * `experimental.proxyClientMaxBodySize` bytes (10 MB by default), cutting the rest without an error.
 * Record imports stream bodies of any size; the production server (server/records-api.ts) serves
 * them before Next, and those that reach Next are refused unless they provably fit.
 */
const NEXT_PROXY_BODY_LIMIT = 10 * 1024 * 1024;
const RECORDS_IMPORT_PATH = /^\/api\/projects\/[^/]+\/records\/[^/]+\/import$/;

/**
 * Next 16's proxy (formerly middleware), run before every route Next serves:
 * - invocations pass untouched: the invocation handler sets their sandbox itself and they carry none
 *   of the dashboard's headers (the production server never sends them here at all); so do form
 *   posts (lib/forms), without cookies on the invocation origin;
 * - an API path with malformed percent-encoding is answered 404 (see hasMalformedEncoding);
 * - on the invocation origin (INVOCATION_URL) only its public paths are served, without cookies;
 * - a record import that Next would cut (see NEXT_PROXY_BODY_LIMIT) is answered 413;
 * - pages get a fresh nonce and the strict Content-Security-Policy Next reads it from, route
 *   handlers the headers of data that must not run or be framed.
 */
export function proxy(request: NextRequest): NextResponse {
  const { pathname } = request.nextUrl;
  if (INVOCATION_PATH.test(pathname)) {
    // The same 404 the invocation handler gives a slug that names no endpoint.
    if (hasMalformedEncoding(pathname)) return NextResponse.json({ error: "not found" }, { status: 404, headers: INVOCATION_SECURITY_HEADERS });
    return NextResponse.next();
  }

  const route = routeByOrigin(request.headers.get("host"), pathname);
  if (route === "not_found") return NextResponse.json({ error: "not found" }, { status: 404, headers: INVOCATION_SECURITY_HEADERS });
  const requestHeaders = new Headers(request.headers);
  if (route === "invocation_origin") requestHeaders.delete("cookie");
  const https = servedOverHttps(request.headers);
  // Form answers carry the invocation sandbox, set by their handler as invocations do.
  if (FORM_INTAKE_PATH.test(pathname)) return NextResponse.next({ request: { headers: requestHeaders } });

  if (pathname.startsWith("/api/")) {
    if (hasMalformedEncoding(pathname)) {
      return NextResponse.json(errorBody(new AppError("not_found", "not found")), { status: 404, headers: API_SECURITY_HEADERS });
    }
    if (request.method === "POST" && RECORDS_IMPORT_PATH.test(pathname) && !fitsNextProxy(request.headers.get("content-length"))) {
      const refused = new AppError(
        "payload_too_large",
        `here an import must declare its Content-Length and hold at most ${NEXT_PROXY_BODY_LIMIT} bytes: split the file, or send it with an API key to a server started with npm start, which streams imports of any size`,
      );
      return NextResponse.json(errorBody(refused), { status: refused.status, headers: API_SECURITY_HEADERS });
    }
    const response = NextResponse.next({ request: { headers: requestHeaders } });
    setAll(response.headers, pathname.startsWith("/api/auth/") ? AUTH_ROUTE_SECURITY_HEADERS : API_SECURITY_HEADERS);
    if (https) response.headers.set("strict-transport-security", "max-age=31536000");
    return response;
  }

  const nonce = newNonce();
  const headers = dashboardPageHeaders(nonce, { development: getConfig().NODE_ENV === "development", https });
  // Next takes the nonce for its own scripts from the request's Content-Security-Policy.
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", headers["content-security-policy"]!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  setAll(response.headers, headers);
  return response;
}

/**
 * Next decodes a route's dynamic segments before calling its handler and answers a segment with
 * malformed percent-encoding (`/fn/ec%E0%A4%A`) with a bare 500, outside any handler. No route has such
 * a name, so the proxy answers 404 first, as the production server's own paths do.
 */
function hasMalformedEncoding(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

function fitsNextProxy(contentLength: string | null): boolean {
  return contentLength !== null && /^\d+$/.test(contentLength) && Number(contentLength) <= NEXT_PROXY_BODY_LIMIT;
}

function setAll(target: Headers, values: Readonly<Record<string, string>>): void {
  for (const name in values) target.set(name, values[name]!);
}

export const config = {
  // Static chunks need no policy of their own and are served on both origins.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
