import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { getConfig, type AppConfig } from "@/lib/config";
import { log, type Logger } from "@/lib/log";

/**
 * The header our own servers (server/start.ts, the test harness) set from the socket address,
 * overwriting whatever a caller sent under that name. Its value carries a per-process secret, so a
 * caller who reaches a route handler some other way cannot pose as another client.
 */
export const SOCKET_IP_HEADER = "x-flowpoint-client-ip";

/**
 * Vercel writes the client's address into these itself, overwriting what the caller sent
 * (x-forwarded-for may be replaced by a proxy placed in front of Vercel; x-vercel-forwarded-for is not).
 */
const VERCEL_CLIENT_IP_HEADERS = ["x-vercel-forwarded-for", "x-forwarded-for"] as const;

const holder = globalThis as typeof globalThis & { __flowpointSocketIpSecret?: string; __flowpointSocketIpServer?: boolean };
const secret = (holder.__flowpointSocketIpSecret ??= randomBytes(16).toString("hex"));

/**
 * Declares that this process serves requests through one of our Node servers (server/start.ts, the
 * test harness), which put the socket address on every request. Under plain `next start` or a
 * serverless host nobody does, and /api/health and the start-up log say the client IP is unknown.
 */
export function declareSocketIpServer(): void {
  holder.__flowpointSocketIpServer = true;
}

/** Called by our Node servers for every incoming request. */
export function markSocketIp(headers: IncomingHttpHeaders, address: string | undefined): void {
  holder.__flowpointSocketIpServer = true;
  headers[SOCKET_IP_HEADER] = `${secret} ${address ?? "unknown"}`;
}

export type ClientIpSource =
  | { source: "trusted-proxy"; header: string }
  | { source: "platform"; platform: "vercel"; header: (typeof VERCEL_CLIENT_IP_HEADERS)[number] }
  | { source: "socket" }
  | { source: "none"; warning: string };

export const NO_CLIENT_IP_WARNING =
  "no trustworthy client IP: TRUSTED_PROXY is not set, no known platform (VERCEL=1) sets one, and the app runs as route handlers without a socket address, so all callers of public endpoints, forms and end-user sign-in share one rate limit (60/min for a public endpoint); set TRUSTED_PROXY to the header your proxy or platform sets";

/** Where getClientIp reads the client IP from in this process: for /api/health and the start-up log. */
export function describeClientIpSource(config: AppConfig = getConfig()): ClientIpSource {
  const trusted = config.TRUSTED_PROXY;
  if (trusted && trusted !== "none") return { source: "trusted-proxy", header: trusted.toLowerCase() };
  if (config.platform === "vercel") return { source: "platform", platform: "vercel", header: VERCEL_CLIENT_IP_HEADERS[0] };
  if (holder.__flowpointSocketIpServer) return { source: "socket" };
  return { source: "none", warning: NO_CLIENT_IP_WARNING };
}

function socketIp(request: Request): string {
  const value = request.headers.get(SOCKET_IP_HEADER);
  if (!value) return "unknown";
  const space = value.indexOf(" ");
  return space > 0 && value.slice(0, space) === secret ? value.slice(space + 1) : "unknown";
}

/** The whole value of a header Vercel overwrites: one address (a list would only come from Vercel too). */
function vercelClientIp(request: Request): string | null {
  for (const name of VERCEL_CLIENT_IP_HEADERS) {
    const first = request.headers.get(name)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return null;
}

/**
 * The client IP used for rate limits. With TRUSTED_PROXY naming a header, that header as the
 * platform's proxy sets it (for X-Forwarded-For, the last entry: the one our proxy appended; the
 * first entry is whatever the caller claimed). On a Vercel deployment without TRUSTED_PROXY, the
 * header Vercel overwrites with the client's address. Otherwise the socket address. Never a raw
 * caller-supplied first X-Forwarded-For entry.
 */
export function getClientIp(request: Request): string {
  const config = getConfig();
  const trusted = config.TRUSTED_PROXY;
  if (trusted && trusted !== "none") {
    const value = request.headers.get(trusted);
    if (value) {
      const entries = value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
      const last = entries[entries.length - 1];
      if (last) return last;
    }
  }
  if (config.platform === "vercel") {
    const ip = vercelClientIp(request);
    if (ip) return ip;
  }
  return socketIp(request);
}

/** The start-up line about the client IP: a warning, in those words, when there is no trustworthy one. */
export function logClientIpSource(logger: Pick<Logger, "info" | "warn"> = log, source: ClientIpSource = describeClientIpSource()): void {
  if (source.source === "none") logger.warn(`client IP for rate limits: ${source.warning}`);
  else if (source.source === "socket") logger.info("client IP for rate limits: the socket address (set TRUSTED_PROXY behind a reverse proxy)");
  else logger.info(`client IP for rate limits: the ${source.header} header`, source.source === "platform" ? { platform: source.platform } : undefined);
}
