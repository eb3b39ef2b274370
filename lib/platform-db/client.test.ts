import { afterAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { closePlatformDb, getPlatformDb, getPlatformDbKind } from "./client";
import { users } from "./schema";
import { newId } from "@/lib/ids";

afterAll(closePlatformDb);

describe("platform database", () => {
  it("migrates on first use and stores rows", async () => {
    const db = await getPlatformDb();
    const id = newId("user");
    const email = `${id}@example.test`;
    await db.insert(users).values({ id, email });
    const rows = await db
      .select()
      .from(users)
      .where(sql`${users.id} = ${id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.email).toBe(email);
    expect(["pglite", "postgres"]).toContain(await getPlatformDbKind());
  });

  it("treats email uniqueness case-insensitively", async () => {
    const db = await getPlatformDb();
    const email = `${newId("user")}@Example.test`;
    await db.insert(users).values({ id: newId("user"), email });
    await expect(db.insert(users).values({ id: newId("user"), email: email.toLowerCase() })).rejects.toThrow();
  });
});
