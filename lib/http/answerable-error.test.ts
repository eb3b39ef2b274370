import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { answerableError } from "./answerable-error";

/** What a Drizzle query over node-postgres rejects with, for a pool made with `config`. */
async function platformQueryFailure(config: pg.PoolConfig): Promise<unknown> {
  const pool = new pg.Pool({ ...config, max: 1 });
  pool.on("error", () => undefined);
  try {
    await drizzlePostgres({ client: pool }).execute(sql`select 1`);
    throw new Error("the query was expected to fail");
  } catch (error) {
    return error;
  } finally {
    await pool.end();
  }
}

describe("answerableError: what a thrown value is answered as", () => {
  // A server that accepts connections and never says a word: PostgreSQL busy beyond the pool's patience.
  let silent: Server;
  const accepted = new Set<Socket>();
  beforeAll(async () => {
    silent = createServer((socket) => accepted.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    for (const socket of accepted) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it("keeps an AppError as it is", () => {
    const error = new AppError("not_found", "no such endpoint");
    expect(answerableError(error)).toBe(error);
  });

  it("answers 503 unavailable for a platform database that refuses connections, keeping the driver's error as the cause", async () => {
    const failure = await platformQueryFailure({ connectionString: "postgres://postgres@127.0.0.1:1/flowpoint" });
    const answered = answerableError(failure);
    expect(answered).toMatchObject({ code: "unavailable", status: 503, isPublic: true });
    expect(answered.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    expect(answered.cause).toBe(failure);
  });

  it("answers 503 unavailable for a platform database the pool cannot reach in time", async () => {
    const { port } = silent.address() as AddressInfo;
    const failure = await platformQueryFailure({ connectionString: `postgres://postgres@127.0.0.1:${port}/flowpoint`, connectionTimeoutMillis: 200 });
    expect(answerableError(failure)).toMatchObject({ code: "unavailable", status: 503 });
  });

  it("answers a generic 500 for a query the database refused, and for anything else thrown", async () => {
    const client = new PGlite();
    try {
      const failure = await drizzlePglite({ client })
        .execute(sql`select * from no_such_table`)
        .catch((error: unknown) => error);
      expect(answerableError(failure)).toMatchObject({ code: "internal", status: 500, message: "internal error", isPublic: false });
    } finally {
      await client.close();
    }
    expect(answerableError(new TypeError("x is undefined"))).toMatchObject({ code: "internal", status: 500 });
    expect(answerableError("a string")).toMatchObject({ code: "internal", status: 500 });
  });
});
