import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { isConcurrentCreation, isMissingTable, isUniqueViolation, mapPgError } from "./map-pg-error";
import { StatementAbortedError } from "./sql-executor";

const pgError = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`driver text with postgres://app:hunter2@db/shop (${code})`), { code, ...extra });

describe("PostgreSQL errors to AppError", () => {
  it("a cancelled statement or an abort before start → timeout", () => {
    expect(mapPgError(pgError("57014")).code).toBe("timeout");
    expect(mapPgError(new StatementAbortedError()).code).toBe("timeout");
  });

  it("connection, authentication and server-state failures → unavailable, without driver text", () => {
    for (const error of [
      pgError("08006"),
      pgError("28P01"),
      pgError("3D000"),
      pgError("53300"),
      pgError("57P01"),
      pgError("ECONNREFUSED"),
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
    ]) {
      const mapped = mapPgError(error);
      expect(mapped.code).toBe("unavailable");
      expect(mapped.message).toBe("the database is unavailable");
      expect(mapped.cause).toBe(error);
    }
  });

  it("anything else → internal with a generic message", () => {
    const mapped = mapPgError(pgError("42601"));
    expect(mapped.code).toBe("internal");
    expect(mapped.message).toBe("the database query failed");
    const appError = new AppError("unique_violation", "x");
    expect(mapPgError(appError)).toBe(appError);
  });

  it("recognises missing tables, unique violations and concurrent creation", () => {
    expect(isMissingTable(pgError("42P01"))).toBe(true);
    expect(isMissingTable(pgError("3F000"))).toBe(true);
    expect(isMissingTable(pgError("42703"))).toBe(false);
    expect(isUniqueViolation(pgError("23505"))).toBe(true);
    expect(isConcurrentCreation(pgError("23505", { constraint: "pg_type_typname_nsp_index" }))).toBe(true);
    expect(isConcurrentCreation(pgError("23505", { constraint: "pg_class_relname_nsp_index" }))).toBe(true);
    expect(isConcurrentCreation(pgError("42P07"))).toBe(true);
    expect(isConcurrentCreation(pgError("23505", { constraint: "tickets_email_0123456789ab_u" }))).toBe(false);
  });
});
