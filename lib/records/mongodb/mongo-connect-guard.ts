import type { MongoClientOptions } from "mongodb";
import { AppError } from "@/lib/errors";
import { parseHost } from "@/lib/outbound/address-policy";
import { type ConnectGuardOptions, guardedLookup, refusedLiteralReason } from "@/lib/outbound/guarded-socket";

const DEFAULT_PORT = 27017;

/** The hosts of a mongodb:// seed list (decoded; IPv6 without brackets). By hand: multi-host URLs are not WHATWG URLs. */
export function mongoSeedHosts(url: string): Array<{ host: string; port: number }> {
  const match = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?#]*)/i.exec(url);
  if (!match?.[1]) return [];
  return match[1].split(",").map((part) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(part);
    if (bracketed) return { host: bracketed[1] ?? "", port: bracketed[2] ? Number(bracketed[2]) : DEFAULT_PORT };
    const colon = part.lastIndexOf(":");
    const host = colon === -1 ? part : part.slice(0, colon);
    let decoded = host;
    try {
      decoded = decodeURIComponent(host);
    } catch {
      // Left as written: parseHost refuses it below.
    }
    return { host: decoded, port: colon === -1 ? DEFAULT_PORT : Number(part.slice(colon + 1)) };
  });
}

function refused(detail: string): AppError {
  return new AppError("validation_failed", `outbound request refused: ${detail}`);
}

/**
 * The MongoClient options that put a customer deployment behind the outbound guard at connect time:
 * a `lookup` that resolves every host name once (seed hosts, SRV targets, replica-set members) and
 * answers only checked addresses. Node never calls a lookup for a literal IP, so literal seed hosts
 * are checked here, and Unix socket paths (which would reach the platform's own machine) refused.
 *
 * Throws AppError `validation_failed` for a refused seed host.
 */
export function guardedMongoOptions(url: string, guard: ConnectGuardOptions = {}): Pick<MongoClientOptions, "lookup"> {
  for (const { host, port } of mongoSeedHosts(url)) {
    const parsed = parseHost(host);
    if (parsed.kind === "invalid") throw refused("the database host must be a host name or an IP address");
    const reason = parsed.kind === "ip" ? refusedLiteralReason(parsed.address, port, guard.allowedHosts) : null;
    if (reason) throw refused(reason);
  }
  return { lookup: guardedLookup(guard) };
}
