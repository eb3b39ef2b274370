import type { MongoClientOptions } from "mongodb";
import { AppError } from "@/lib/errors";
import { parseHost } from "@/lib/outbound/address-policy";
import { connectionUrlHosts } from "../connection-url-hosts";
import { type ConnectGuardOptions, guardedLookup, refusedLiteralReason } from "@/lib/outbound/guarded-socket";

const DEFAULT_PORT = 27017;

/** The hosts of a mongodb:// seed list, with the default port where the URL gives none. */
export function mongoSeedHosts(url: string): Array<{ host: string; port: number }> {
  return connectionUrlHosts(url).map(({ host, port }) => ({ host, port: port ?? DEFAULT_PORT }));
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
