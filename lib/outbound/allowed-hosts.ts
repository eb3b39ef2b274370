import { isIPv6 } from "node:net";
import { ConfigError, getConfig } from "@/lib/config";
import { parseHost } from "./address-policy";

/**
 * OUTBOUND_ALLOWED_HOSTS: comma-separated `host[:port]` pairs exempt from the public-address check,
 * for self-hosting (an internal API) and tests (a server on 127.0.0.1). The host must match exactly
 * (case-insensitive, a trailing dot ignored, IPv4/IPv6 compared in canonical form); no port means any
 * port. IPv6 hosts with a port are written in brackets: `[fd00::5]:8080`.
 */
export interface AllowedHost {
  /** Canonical host: lowercase name without trailing dot, dotted IPv4, or compressed IPv6 without brackets. */
  host: string;
  /** null = any port. */
  port: number | null;
}

function invalidEntry(entry: string, why: string): ConfigError {
  return new ConfigError(`Invalid configuration: OUTBOUND_ALLOWED_HOSTS entry "${entry}" ${why} (expected host[:port], IPv6 as [addr]:port)`);
}

function parsePort(entry: string, text: string): number {
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) throw invalidEntry(entry, "has an invalid port");
  return port;
}

/** The canonical form hosts are compared in; null when the host is not valid at all. */
export function canonicalHost(host: string): string | null {
  const parsed = parseHost(host);
  if (parsed.kind === "ip") return parsed.address;
  if (parsed.kind === "name") return parsed.name.replace(/\.$/, "");
  return null;
}

/** Parses the OUTBOUND_ALLOWED_HOSTS value; throws a ConfigError naming a bad entry. */
export function parseAllowedHosts(value: string | undefined): AllowedHost[] {
  if (!value) return [];
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    let hostText = entry;
    let port: number | null = null;
    if (entry.startsWith("[")) {
      const close = entry.indexOf("]");
      if (close === -1) throw invalidEntry(entry, "has an unclosed [");
      hostText = entry.slice(0, close + 1);
      const rest = entry.slice(close + 1);
      if (rest !== "") {
        if (!rest.startsWith(":")) throw invalidEntry(entry, "has text after the ]");
        port = parsePort(entry, rest.slice(1));
      }
    } else if (!isIPv6(entry) && entry.includes(":")) {
      const colon = entry.lastIndexOf(":");
      hostText = entry.slice(0, colon);
      port = parsePort(entry, entry.slice(colon + 1));
    }
    const host = canonicalHost(hostText);
    if (host === null) throw invalidEntry(entry, "has an invalid host");
    return { host, port };
  });
}

let cache: { raw: string | undefined; parsed: AllowedHost[] } | undefined;

/** The allow-list from the configuration (parsed once per distinct value). */
export function getAllowedHosts(): AllowedHost[] {
  const raw = getConfig().OUTBOUND_ALLOWED_HOSTS;
  if (!cache || cache.raw !== raw) cache = { raw, parsed: parseAllowedHosts(raw) };
  return cache.parsed;
}

/** True when `host:port` is on the allow-list (exact host, port or any-port entry). */
export function isAllowedHost(host: string, port: number, allowed: AllowedHost[] = getAllowedHosts()): boolean {
  const canonical = canonicalHost(host);
  if (canonical === null) return false;
  return allowed.some((entry) => entry.host === canonical && (entry.port === null || entry.port === port));
}
