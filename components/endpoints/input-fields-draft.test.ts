import { describe, expect, it } from "vitest";
import { endpointInputSpecSchema } from "@/lib/endpoints/endpoint-input";
import { newInputFieldDraft, sampleRequestOf, toEndpointInputSpec, toInputFieldDrafts } from "./input-fields-draft";

const spec = endpointInputSpecSchema.parse({
  query: { page: { type: "integer", min: 2 }, tag: { type: "array", min: 2 }, dryRun: { type: "boolean" } },
  body: {
    email: { type: "string", required: true, pattern: "^[^@]+@[^@]+$" },
    plan: { type: "string", enum: ["free", "pro"] },
    code: { type: "string", min: 8, max: 8 },
    seats: { type: "integer", enum: [5, 10] },
    price: { type: "number", max: 0.5 },
    tags: { type: "array" },
    meta: { type: "object" },
  },
});

describe("input field rows", () => {
  it("round-trip the saved input, and no rows mean no input", () => {
    expect(toEndpointInputSpec(toInputFieldDrafts(spec))).toEqual(spec);
    expect(toEndpointInputSpec([])).toBeNull();
    expect(toEndpointInputSpec([newInputFieldDraft()])).toBeNull();
    expect(toInputFieldDrafts(null)).toEqual([]);
  });

  it("send text the server names when a bound or enum value is not a number", () => {
    const row = { ...newInputFieldDraft("query"), name: "page", type: "integer" as const, min: "one", enumText: "1, two" };
    expect(toEndpointInputSpec([row])).toEqual({ query: { page: { type: "integer", min: "one", enum: [1, "two"] } } });
  });

  it("keep a row named __proto__ as a field, for the server to refuse", () => {
    const sent = JSON.stringify(toEndpointInputSpec([{ ...newInputFieldDraft(), name: "__proto__" }]));
    expect(sent).toBe('{"body":{"__proto__":{"type":"string"}}}');
  });

  it("build a sample request that respects the declared types, enums and bounds", () => {
    const sample = sampleRequestOf(toInputFieldDrafts(spec));
    expect(JSON.parse(sample.body)).toEqual({ email: "ada@example.com", plan: "free", code: "samplexx", seats: 5, price: 0.5, tags: ["sample"], meta: {} });
    expect(sample.query).toBe("page=2&tag=sample&tag=sample&dryRun=true");
    expect(sampleRequestOf([])).toEqual({ body: "", query: "" });
  });
});
