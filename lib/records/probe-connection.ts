import pg from "pg";
import { MongoClient, type MongoClientOptions } from "mongodb";
import { type AppError, isAppError } from "@/lib/errors";
import { type ConnectGuardOptions, guardedStreamFactory } from "@/lib/outbound/guarded-socket";
import { classifyConnectionError, collectClues, type ConnectionFailure } from "./classify-connection-error";
import { describeConnectionTarget, type ConnectionTargetDescription } from "./describe-connection-target";
import { databaseNameFromUrl } from "./mongodb/map-document";
import { guardedMongoOptions } from "./mongodb/mongo-connect-guard";

/** The answer of "Test connection": `message` is a sentence for the owner and never holds the password. */
export interface RecordStoreConnectionTest {
  ok: boolean;
  /** Set when ok is false. */
  reason?: ConnectionFailure;
  message: string;
}

export function connectionFailureMessage(reason: ConnectionFailure, target: ConnectionTargetDescription): string {
  switch (reason) {
    case "cannot_resolve_host":
      return `Cannot resolve host ${target.hosts}: check the host name.`;
    case "connection_refused":
      return `Connection refused by ${target.hosts}: is the database server running and listening on that port?`;
    case "authentication_failed":
      return `Authentication failed${target.user ? ` for user "${target.user}"` : ""}: check the user name and password.`;
    case "timed_out":
      return `Timed out connecting to ${target.hosts}: check the address and that the server accepts connections from this platform.`;
    case "database_not_found":
      return `Database ${target.database ? `"${target.database}" ` : ""}does not exist on ${target.hosts}.`;
    case "other":
      return `Could not connect to ${target.hosts}.`;
  }
}

function failed(error: unknown, target: ConnectionTargetDescription): RecordStoreConnectionTest {
  // The outbound guard refused the address at connect time (drivers wrap it): its message names only the host.
  const refusal = collectClues(error).find((clue): clue is AppError => isAppError(clue) && clue.code === "validation_failed");
  if (refusal) return { ok: false, reason: "other", message: `${refusal.message}.` };
  const reason = classifyConnectionError(error);
  return { ok: false, reason, message: connectionFailureMessage(reason, target) };
}

/** Connects to a PostgreSQL server once (no pool) and runs SELECT 1, through the outbound guard. */
export async function probePostgres(url: string, timeoutMs: number, guard?: ConnectGuardOptions): Promise<RecordStoreConnectionTest> {
  const target = describeConnectionTarget(url, 5432);
  let client: pg.Client;
  try {
    client = new pg.Client({
      connectionString: url,
      stream: guardedStreamFactory(guard),
      connectionTimeoutMillis: timeoutMs,
      statement_timeout: timeoutMs,
      application_name: "flowpoint-connection-test",
    });
  } catch {
    return { ok: false, reason: "other", message: "The connection string is not valid." };
  }
  // A failed connection can still emit "error" later; it must not crash the process.
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { ok: true, message: `Connected to ${target.hosts}.` };
  } catch (error) {
    return failed(error, target);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Connects to a MongoDB deployment once and runs ping on the URL's database, through the outbound guard. */
export async function probeMongo(url: string, timeoutMs: number, guard?: ConnectGuardOptions): Promise<RecordStoreConnectionTest> {
  const target = describeConnectionTarget(url, url.startsWith("mongodb+srv://") ? undefined : 27017);
  let guarded: Pick<MongoClientOptions, "lookup">;
  try {
    guarded = guardedMongoOptions(url, guard);
  } catch (error) {
    return failed(error, target);
  }
  let client: MongoClient;
  try {
    client = new MongoClient(url, { ...guarded, serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs, appName: "flowpoint-connection-test" });
  } catch {
    return { ok: false, reason: "other", message: "The connection string is not valid." };
  }
  try {
    await client.db(databaseNameFromUrl(url) ?? "flowpoint").command({ ping: 1 });
    return { ok: true, message: `Connected to ${target.hosts}.` };
  } catch (error) {
    return failed(error, target);
  } finally {
    await client.close().catch(() => undefined);
  }
}
