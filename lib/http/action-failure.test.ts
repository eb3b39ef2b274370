import { describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { toActionFailure } from "./action-failure";

describe("toActionFailure", () => {
  it("answers an AppError's message, code and issues, matched to the form's fields", () => {
    const error = new AppError("validation_failed", "invalid mail settings", {
      issues: [
        { path: "mail.port", message: "must be a number" },
        { path: "database.url", message: "is not a URL" },
      ],
    });
    const failure = toActionFailure(error, { action: "update-mail", fields: ["mail.port", "name"], values: { name: "Site" } });
    expect(failure).toEqual({
      ok: false,
      error: "Invalid mail settings",
      code: "validation_failed",
      issues: error.issues,
      fieldErrors: { "mail.port": "Must be a number" },
      otherIssues: ["database.url: is not a URL"],
      values: { name: "Site" },
    });
  });

  it("puts a unique violation's field among the issues and under its input", () => {
    const failure = toActionFailure(new AppError("unique_violation", "slug is taken", { field: "slug" }), { action: "create-endpoint", fields: ["slug"] });
    expect(failure).toMatchObject({
      ok: false,
      error: "Slug is taken",
      code: "unique_violation",
      issues: [{ path: "slug", message: "slug is taken" }],
      fieldErrors: { slug: "Slug is taken" },
    });
  });

  it("answers anything else with a generic sentence and logs it once with a request id", () => {
    const spy = vi.spyOn(log, "error").mockImplementation(() => {});
    const failure = toActionFailure(new Error("connection refused to 10.0.0.5"), { action: "delete-record" });
    expect(failure).toEqual({ ok: false, error: "Something went wrong on our side. Please try again.", issues: [] });
    expect(JSON.stringify(failure)).not.toContain("10.0.0.5");
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]![1]).toMatchObject({ action: "delete-record", requestId: expect.stringMatching(/^req_/) });
    spy.mockRestore();
  });
});
