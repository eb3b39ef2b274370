import { randomBytes } from "node:crypto";
import { MongoClient } from "mongodb";
import { withMongoDatabase } from "./mongo-database-url";
import { createScratchDatabase } from "./scratch-postgres";

/**
 * The one registry of customer database backends the tests run on: the embedded PGlite store
 * always, PostgreSQL when DATABASE_URL is set, MongoDB when MONGODB_URL is set. The record store
 * contract, the store-level service tests and the route contract suites all take their backends
 * from here, so a new backend (or a new variable) is added in one place.
 */
export type CustomerDatabaseKind = "local" | "postgres" | "mongodb";

/** A database made for one suite on a server backend: its URL and a way to remove it. */
export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface CustomerDatabaseBackend {
  name: "PGlite" | "PostgreSQL" | "MongoDB";
  kind: CustomerDatabaseKind;
  /** The variable that turns the backend on (none: always on). */
  variable?: "DATABASE_URL" | "MONGODB_URL";
  /** On a server backend whose variable is set: a fresh database named `<label>_…`. */
  createDatabase?: (label: string) => Promise<FreshDatabase>;
}

async function freshMongoDatabase(serverUrl: string, label: string): Promise<FreshDatabase> {
  const database = `${label}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const url = withMongoDatabase(serverUrl, database);
  return {
    url,
    async drop() {
      const client = new MongoClient(url);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

/** Every backend, in a fixed order; `createDatabase` is absent where the backend's variable is not set. */
export function customerDatabaseBackends(): CustomerDatabaseBackend[] {
  const postgresUrl = process.env.DATABASE_URL;
  const mongoUrl = process.env.MONGODB_URL;
  return [
    { name: "PGlite", kind: "local" },
    {
      name: "PostgreSQL",
      kind: "postgres",
      variable: "DATABASE_URL",
      ...(postgresUrl ? { createDatabase: (label: string) => createScratchDatabase(postgresUrl, label) } : {}),
    },
    {
      name: "MongoDB",
      kind: "mongodb",
      variable: "MONGODB_URL",
      ...(mongoUrl ? { createDatabase: (label: string) => freshMongoDatabase(mongoUrl, label) } : {}),
    },
  ];
}
