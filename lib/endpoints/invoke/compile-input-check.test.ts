import { describe, expect, it } from "vitest";
import { endpointInputSpecSchema, type EndpointInputSpec } from "../endpoint-input";
import { compileInputCheck, type InputCheck } from "./compile-input-check";

function compile(input: unknown): InputCheck {
  const check = compileInputCheck(endpointInputSpecSchema.parse(input));
  if (!check) throw new Error("expected a check");
  return check;
}

describe("compileInputCheck", () => {
  it("compiles nothing for an absent or empty input", () => {
    expect(compileInputCheck(null)).toBeNull();
    expect(compileInputCheck(undefined)).toBeNull();
    expect(compileInputCheck({ query: {}, body: {} })).toBeNull();
  });

  it("converts query numbers, integers, booleans and repeated keys, and keeps undeclared parameters", () => {
    const check = compile({
      query: { page: { type: "integer", min: 1 }, ratio: { type: "number" }, dryRun: { type: "boolean" }, tag: { type: "array" }, q: { type: "string" } },
    });
    const verdict = check.check({ page: "3", ratio: "-0.25", dryRun: "true", tag: "a", q: "12", other: "x" }, undefined);
    expect(verdict).toEqual({ ok: true, query: { page: 3, ratio: -0.25, dryRun: true, tag: ["a"], q: "12", other: "x" } });
    expect(check.check({ tag: ["a", "b"], dryRun: "false", page: "" }, undefined)).toEqual({ ok: true, query: { tag: ["a", "b"], dryRun: false } });
  });

  it("reports values that cannot be converted, never a NaN", () => {
    const check = compile({ query: { page: { type: "integer" }, ratio: { type: "number" }, dryRun: { type: "boolean" }, one: { type: "string" } } });
    const verdict = check.check({ page: "2.5", ratio: "1e400", dryRun: "yes", one: ["a", "b"] }, undefined);
    expect(verdict).toEqual({
      ok: false,
      issues: [
        { path: "query.page", message: "must be a whole number" },
        { path: "query.ratio", message: "must be a number" },
        { path: "query.dryRun", message: "must be true or false" },
        { path: "query.one", message: "must be given once" },
      ],
    });
    expect(check.check({ page: "99999999999999999" }, undefined).ok).toBe(false);
    expect(check.check({ ratio: "0x10" }, undefined).ok).toBe(false);
  });

  it("checks body types, required fields, enums, bounds and patterns, listing every problem", () => {
    const check = compile({
      body: {
        email: { type: "string", required: true, pattern: "^[^@]+@[^@]+$" },
        name: { type: "string", min: 2, max: 5 },
        plan: { type: "string", enum: ["free", "pro"] },
        seats: { type: "integer", min: 1, max: 10 },
        tags: { type: "array", max: 2 },
        meta: { type: "object" },
        agree: { type: "boolean", required: true },
      },
    });
    expect(check.check({}, { email: "a@b", name: "Zoë", plan: "pro", seats: 3, tags: [], meta: {}, agree: false })).toEqual({ ok: true, query: {} });
    const verdict = check.check({}, { email: "nope", name: "ÅÅÅÅÅÅ", plan: "gold", seats: 2.5, tags: [1, 2, 3], meta: [], agree: null });
    expect(verdict).toEqual({
      ok: false,
      issues: [
        { path: "body.email", message: "must match the pattern ^[^@]+@[^@]+$" },
        { path: "body.name", message: "must be at most 5 characters long" },
        { path: "body.plan", message: 'must be one of "free", "pro"' },
        { path: "body.seats", message: "must be a whole number" },
        { path: "body.tags", message: "must have at most 2 items" },
        { path: "body.meta", message: "must be an object" },
        { path: "body.agree", message: "is required" },
      ],
    });
    expect(check.check({}, { email: "a@b", agree: true, seats: 0 })).toEqual({ ok: false, issues: [{ path: "body.seats", message: "must be at least 1" }] });
  });

  it("reports a body that is not an object as one issue, and skips the body when there is none (GET)", () => {
    const check = compile({ body: { email: { type: "string", required: true } } });
    expect(check.checksBody).toBe(true);
    expect(check.check({}, [1, 2])).toEqual({ ok: false, issues: [{ path: "body", message: "must be a JSON object" }] });
    expect(check.check({}, "text")).toEqual({ ok: false, issues: [{ path: "body", message: "must be a JSON object" }] });
    expect(check.check({}, undefined)).toEqual({ ok: true, query: {} });
  });

  it("never reads inherited members for absent fields, even where a stored spec names one", () => {
    // The schema refuses such names; the runtime check must not depend on it.
    const stored = JSON.parse('{"body": {"constructor": {"type": "string", "required": true}}, "query": {"toString": {"type": "integer", "required": true}}}') as EndpointInputSpec;
    const check = compileInputCheck(stored);
    expect(check?.check({}, {})).toEqual({
      ok: false,
      issues: [
        { path: "query.toString", message: "is required" },
        { path: "body.constructor", message: "is required" },
      ],
    });
  });

  it("caps the issues at 20", () => {
    const fields = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`f${index}`, { type: "string", required: true }]));
    const verdict = compile({ body: fields }).check({}, {});
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.issues).toHaveLength(20);
  });
});
