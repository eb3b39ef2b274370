import { describe, expect, it } from "vitest";
import { issuesFromZod } from "@/lib/errors";
import { declaresInputFields, endpointInputSpecSchema, INPUT_LIMITS } from "./endpoint-input";

function issuesOf(input: unknown) {
  const parsed = endpointInputSpecSchema.safeParse(input);
  return parsed.success ? [] : issuesFromZod(parsed.error, "input");
}

describe("endpointInputSpecSchema", () => {
  it("accepts the issue's example and every option", () => {
    const example = {
      query: { page: { type: "integer", min: 1 }, tag: { type: "array", max: 5 }, dryRun: { type: "boolean" } },
      body: {
        email: { type: "string", required: true, pattern: "^[^@]+@[^@]+$" },
        tags: { type: "array" },
        plan: { type: "string", enum: ["free", "pro"], min: 2, max: 10 },
        seats: { type: "integer", enum: [1, 5, 10] },
        price: { type: "number", min: 0.5, max: 99.5 },
        meta: { type: "object" },
      },
    };
    expect(issuesOf(example)).toEqual([]);
    expect(endpointInputSpecSchema.parse(example)).toEqual(example);
  });

  it("names every problem of a spec by its path", () => {
    const issues = issuesOf({
      query: { page: { type: "date" }, filter: { type: "object" } },
      body: {
        age: { type: "integer", min: 10, max: 5 },
        plan: { type: "string", enum: ["free", 2] },
        seats: { type: "integer", enum: [1.5] },
        flag: { type: "boolean", min: 1, pattern: "x" },
        name: { type: "string", min: 1.5 },
        code: { type: "string", pattern: "(a+)+$" },
        broken: { type: "string", pattern: "[" },
        extra: { type: "string", default: "x" },
      },
    });
    const paths = issues.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "input.query.page.type",
        "input.query.filter.type",
        "input.body.age.max",
        "input.body.plan.enum.1",
        "input.body.seats.enum.0",
        "input.body.flag.min",
        "input.body.flag.pattern",
        "input.body.name.min",
        "input.body.code.pattern",
        "input.body.broken.pattern",
        "input.body.extra",
      ]),
    );
    expect(issues.find((issue) => issue.path === "input.body.age.max")?.message).toBe("must not be less than min (10)");
    expect(issues.find((issue) => issue.path === "input.body.code.pattern")?.message).toMatch(/exponential time/);
    expect(issues.find((issue) => issue.path === "input.query.filter.type")?.message).toBe("a query parameter cannot be an object");
  });

  it("refuses names that are not slug-like or that every object inherits, __proto__ included", () => {
    const body = JSON.parse('{"__proto__": {"type": "string"}, "constructor": {"type": "string"}, "has space": {"type": "string"}, "9lives": {"type": "number"}}');
    const issues = issuesOf({ body });
    expect(issues.map((issue) => issue.path).sort()).toEqual(["input.body.9lives", "input.body.__proto__", "input.body.constructor", "input.body.has space"]);
    expect(issues.find((issue) => issue.path === "input.body.__proto__")?.message).toMatch(/reserved/);
  });

  it("limits the number of fields and enum values", () => {
    const many = Object.fromEntries(Array.from({ length: INPUT_LIMITS.maxFields + 1 }, (_, index) => [`f${index}`, { type: "string" }]));
    expect(issuesOf({ body: many })).toEqual([{ path: "input.body", message: `at most ${INPUT_LIMITS.maxFields} fields` }]);
    const values = Array.from({ length: INPUT_LIMITS.maxEnumValues + 1 }, (_, index) => `v${index}`);
    expect(issuesOf({ body: { plan: { type: "string", enum: values } } })[0]?.path).toBe("input.body.plan.enum");
  });

  it("tells whether a spec declares anything", () => {
    expect(declaresInputFields(null)).toBe(false);
    expect(declaresInputFields({ query: {}, body: {} })).toBe(false);
    expect(declaresInputFields({ body: { email: { type: "string" } } })).toBe(true);
  });
});
