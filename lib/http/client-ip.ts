import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { getConfig } from "@/lib/config";

/**
 * The header our own servers (server/start.ts, the test harness) set from the socket address,
 * overwriting whatever a caller sent under that name. Its value carries a per-process secret, so a
 * caller who reaches a route handler some other way cannot pose as another client.
 */
export const SOCKET_IP_HEADER = "x-flowpoint-client-ip";

const holder = globalThis as typeof globalThis & { __flowpointSocketIpSecret?: string };
const secret = (holder.__flowpointSocketIpSecret ??= randomBytes(16).toString("hex"));

/** Called by our Node servers for every incoming request. */
export function markSocketIp(headers: IncomingHttpHeaders, address: string | undefined): void {
  headers[SOCKET_IP_HEADER] = `${secret} ${address ?? "unknown"}`;
}

function socketIp(request: Request): string {
  const value = request.headers.get(SOCKET_IP_HEADER);
  if (!value) return "unknown";
  const space = value.indexOf(" ");
  return space > 0 && value.slice(0, space) === secret ? value.slice(space + 1) : "unknown";
}

/**
 * The client IP used for rate limits. With TRUSTED_PROXY naming a header, that header as the
 * platform's proxy sets it (for X-Forwarded-For, the last entry: the one our proxy appended; the
 * first entry is whatever the caller claimed). Otherwise the socket address. Never a raw
 * caller-supplied first X-Forwarded-For entry.
 */
export function getClientIp(request: Request): string {
  const trusted = getConfig().TRUSTED_PROXY;
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
  return socketIp(request);
}
