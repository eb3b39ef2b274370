import { describe, expect, it, vi } from "vitest";
import { AppError, errorBody, invocationErrorBody, isAppError } from "./errors";

/** The same file loaded again, as the production server and Next.js' bundles each load their own copy. */
async function foreignErrorsModule(): Promise<typeof import("./errors")> {
  vi.resetModules();
  const foreign = await import("./errors");
  expect(foreign.AppError).not.toBe(AppError);
  return foreign;
}

describe("isAppError", () => {
  it("recognises AppErrors of this module", () => {
    const error = new AppError("validation_failed", "bad", { issues: [{ path: "a", message: "m" }] });
    expect(isAppError(error)).toBe(true);
    expect(error).toBeInstanceOf(AppError);
  });

  it("recognises AppErrors thrown by another copy of the module, where instanceof does not", async () => {
    const foreign = await foreignErrorsModule();
    const error = new foreign.AppError("validation_failed", "invalid query", { issues: [{ path: "where.0.value", message: "text cannot contain the NUL character" }] });
    expect(error instanceof AppError).toBe(false);
    expect(isAppError(error)).toBe(true);
    expect(foreign.isAppError(new AppError("timeout", "slow"))).toBe(true);
    if (!isAppError(error)) throw new Error("unreachable");
    expect(error.status).toBe(422);
    expect(errorBody(error)).toEqual({ error: "invalid query", code: "validation_failed", issues: [{ path: "where.0.value", message: "text cannot contain the NUL character" }] });
  });

  it("does not take look-alikes for AppErrors: plain objects, other errors, unknown codes", () => {
    expect(isAppError({ code: "validation_failed", message: "bad", status: 422 })).toBe(false);
    expect(isAppError(Object.assign(new Error("x"), { code: "not_found" }))).toBe(false);
    expect(isAppError(null)).toBe(false);
    expect(isAppError("validation_failed")).toBe(false);
    const branded = { [Symbol.for("flowpoint.AppError")]: true, code: "made_up" };
    expect(isAppError(branded)).toBe(false);
  });

  it("keeps the brand out of copies of the error's fields (log lines, spreads)", () => {
    expect(Object.getOwnPropertySymbols({ ...new AppError("not_found", "gone") })).toEqual([]);
  });
});

describe("error bodies", () => {
  const unique = new AppError("unique_violation", 'the value of "slug" is already taken', { issues: [{ path: "slug", message: "is already taken" }], field: "slug" });

  it("answers the platform's APIs with error, code, issues and field, in that order, each detail only when present", () => {
    expect(JSON.stringify(errorBody(unique))).toBe(
      '{"error":"the value of \\"slug\\" is already taken","code":"unique_violation","issues":[{"path":"slug","message":"is already taken"}],"field":"slug"}',
    );
    expect(JSON.stringify(errorBody(new AppError("not_found", "project not found", { issues: [] })))).toBe('{"error":"project not found","code":"not_found"}');
  });

  it("keeps server-side messages out of the body, not the code", () => {
    expect(errorBody(new AppError("internal", "the driver said: password=hunter2"))).toEqual({ error: "internal error", code: "internal" });
    expect(errorBody(new AppError("unavailable", "the project database is not reachable"))).toEqual({ error: "the project database is not reachable", code: "unavailable" });
  });

  it("answers custom endpoint calls with the specification's bodies: no code", () => {
    expect(JSON.stringify(invocationErrorBody(new AppError("rate_limited", "rate limit exceeded")))).toBe('{"error":"rate limit exceeded"}');
    expect(JSON.stringify(invocationErrorBody(new AppError("internal", "boom")))).toBe('{"error":"internal error"}');
    expect(invocationErrorBody(unique)).toEqual({ error: 'the value of "slug" is already taken', issues: [{ path: "slug", message: "is already taken" }], field: "slug" });
  });
});
