import { resolveSrv } from "node:dns/promises";
import { getConfig } from "@/lib/config";
import { AppError, isAppError } from "@/lib/errors";
import { assertPublicDestination } from "@/lib/outbound/safe-fetch";
import { connectionUrlHosts } from "@/lib/records/connection-url-hosts";
import type { ProjectDatabaseInput } from "./project-database-input";

const DEFAULT_PORTS = { postgres: 5432, mongodb: 27017 } as const;

export const BUILT_IN_DATABASE_ON_SERVERLESS =
  "the built-in database is not available on a serverless host (its files would live in one short-lived instance): attach a PostgreSQL or MongoDB database";

/**
 * A customer database URL is outbound traffic like any flow call: its hosts must be public or
 * named in OUTBOUND_ALLOWED_HOSTS, checked before any connection is opened. On a serverless host
 * (lib/config.ts) the built-in database is refused, as the embedded platform database is.
 */
export async function checkDatabaseDestination(database: ProjectDatabaseInput): Promise<void> {
  if (database.kind === "local") {
    if (getConfig().serverless) {
      throw new AppError("validation_failed", BUILT_IN_DATABASE_ON_SERVERLESS, { issues: [{ path: "database.kind", message: BUILT_IN_DATABASE_ON_SERVERLESS }] });
    }
    return;
  }
  const hosts = connectionUrlHosts(database.url);
  if (hosts.length === 0) throw new AppError("validation_failed", "the URL names no host", { issues: [{ path: "database.url", message: "names no host" }] });
  const srv = /^mongodb\+srv:/i.test(database.url);
  const destinations = srv ? await resolveSrvTargets(hosts[0]!.host) : hosts;
  for (const { host, port } of destinations) {
    try {
      await assertPublicDestination(host, port ?? DEFAULT_PORTS[database.kind]);
    } catch (error) {
      const message = isAppError(error) ? error.message : "the database host is not allowed";
      throw new AppError("validation_failed", message, { issues: [{ path: "database.url", message }] });
    }
  }
}

/** mongodb+srv names a DNS SRV record, not a host: the hosts it lists are what the driver connects to. */
async function resolveSrvTargets(name: string): Promise<Array<{ host: string; port: number }>> {
  try {
    const records = await resolveSrv(`_mongodb._tcp.${name}`);
    return records.map((record) => ({ host: record.name, port: record.port }));
  } catch {
    const message = `cannot resolve host ${name}`;
    throw new AppError("validation_failed", message, { issues: [{ path: "database.url", message }] });
  }
}
