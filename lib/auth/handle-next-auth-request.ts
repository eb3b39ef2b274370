import NextAuth from "next-auth";
import type { NextApiRequest, NextApiResponse } from "next";
import type { AppError } from "@/lib/errors";
import { getRequestClientIp } from "@/lib/end-users/request-client-ip";
import { safeCallbackUrl } from "./safe-callback-url";
import { getDecoyPasswordHash } from "./password";
import { getAuthOptions } from "./session";

const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"];

/** The parts of NextApiResponse next-auth's handler uses, collected into a Fetch Response. */
class CollectedResponse {
  statusCode = 200;
  readonly headers = new Headers();
  body: string | null = null;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  getHeader(name: string): string[] | undefined {
    const values = name.toLowerCase() === "set-cookie" ? this.headers.getSetCookie() : [this.headers.get(name)].filter((value): value is string => value !== null);
    return values.length ? values : undefined;
  }

  setHeader(name: string, value: string | readonly string[]): this {
    this.headers.delete(name);
    for (const item of typeof value === "string" ? [value] : value) this.headers.append(name, item);
    return this;
  }

  json(value: unknown): this {
    this.headers.set("content-type", "application/json");
    this.body = JSON.stringify(value);
    return this;
  }

  send(value: unknown): this {
    if (typeof value === "string" || value === undefined || value === null) this.body = value ?? null;
    else return this.json(value);
    return this;
  }

  end(): this {
    return this;
  }

  toResponse(): Response {
    const bodyless = this.statusCode === 204 || this.statusCode === 304;
    return new Response(bodyless ? null : this.body, { status: this.statusCode, headers: this.headers });
  }
}

async function readBody(request: Request): Promise<Record<string, string> | undefined> {
  if (request.method !== "POST") return undefined;
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const parsed: unknown = await request.json();
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, string>) : undefined;
    }
    if (type.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(await request.text()));
  } catch {
    // A body that does not parse is treated as no body; next-auth then refuses the request itself.
  }
  return undefined;
}

function parseCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    const raw = part.slice(index + 1).trim();
    try {
      cookies[name] ??= decodeURIComponent(raw);
    } catch {
      cookies[name] ??= raw;
    }
  }
  return cookies;
}

/**
 * next-auth answers 500 when the callbackUrl query parameter or cookie is not a URL it can parse
 * (`http://127.0.0.1:3911.evil.example/`), before any callback of ours runs. Both are replaced by
 * what safeCallbackUrl makes of them (a path of the app, else /workspaces); the redirect callback
 * then checks every value again, the form field included.
 */
function sanitizeCallbackUrls(query: Record<string, string | string[]>, cookies: Record<string, string>): void {
  if (query.callbackUrl) query.callbackUrl = safeCallbackUrl(query.callbackUrl);
  for (const name of CALLBACK_URL_COOKIES) {
    if (cookies[name]) cookies[name] = safeCallbackUrl(cookies[name]);
  }
}

/**
 * next-auth's endpoints (/api/auth/*) for a plain Fetch Request. next-auth's App Router entry reads
 * next/headers, which exists only inside Next's own request handling; its API-route entry takes the
 * request as an object, so it runs the same in Next, in the production server and in tests.
 * A sign-in refused by a rate limit is answered 429 with Retry-After (when next-auth answers JSON,
 * as its client asks; a form post's redirect keeps its status and gets the header).
 */
export async function handleNextAuthRequest(request: Request, nextauth: string[]): Promise<Response> {
  // next-auth's client fetches /api/auth/csrf before it posts credentials: the decoy hash for
  // unknown emails is ready by then, so the first unknown email costs no more than a known one.
  void getDecoyPasswordHash().catch(() => undefined);
  const url = new URL(request.url);
  let rateLimited: AppError | undefined;
  const options = getAuthOptions({ clientIp: getRequestClientIp(request), onSignInRateLimited: (error) => (rateLimited = error) });
  const query: Record<string, string | string[]> = { ...Object.fromEntries(url.searchParams), nextauth };
  const cookies = parseCookies(request.headers.get("cookie"));
  sanitizeCallbackUrls(query, cookies);
  const apiRequest = { method: request.method, query, body: await readBody(request), cookies, headers: Object.fromEntries(request.headers) };
  const collected = new CollectedResponse();
  await NextAuth(apiRequest as unknown as NextApiRequest, collected as unknown as NextApiResponse, options);
  if (rateLimited) {
    for (const [name, value] of Object.entries(rateLimited.headers ?? {})) collected.headers.set(name, value);
    if (collected.statusCode < 300 || collected.statusCode >= 400) collected.status(rateLimited.status);
  }
  return collected.toResponse();
}
