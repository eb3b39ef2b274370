import { describe, expect, it } from "vitest";
import type { EndpointDefinition, EndpointInput } from "./endpoint-definition";
import { planEndpointImport } from "./plan-endpoint-import";

const input = (overrides: Partial<EndpointInput> = {}): EndpointInput => ({
  name: "Tickets",
  method: "GET",
  slug: "tickets",
  auth: "public",
  authSchema: null,
  allowedOrigins: [],
  group: null,
  cacheSeconds: 0,
  steps: [{ type: "query", name: "rows", schema: "tickets", limit: 10 }],
  response: { status: 200, contentType: "application/json", body: "{{steps.rows}}", headers: {} },
  enabled: true,
  input: null,
  ...overrides,
});

const stored = (overrides: Partial<EndpointInput> = {}): EndpointDefinition => ({
  ...input(overrides),
  id: `ep_${"0".repeat(25)}${overrides.slug?.length ?? 1}`,
  projectId: "prj_x",
  version: 3,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

describe("planEndpointImport", () => {
  it("matches by method and slug: creates new ones, replaces those that differ naming the fields, leaves equal ones", () => {
    const existing = [stored(), stored({ slug: "other", name: "Other" }), stored({ method: "POST", slug: "tickets" })];
    const plan = planEndpointImport(
      [
        // The same definition with its keys in another order.
        { ...input(), steps: [{ limit: 10, schema: "tickets", name: "rows", type: "query" }] },
        input({ slug: "other", name: "Renamed", enabled: false, response: { status: 201, contentType: "application/json", body: "{}", headers: {} } }),
        input({ method: "PUT", slug: "tickets" }),
      ],
      existing,
    );
    expect(plan).toEqual([
      { method: "GET", slug: "tickets", name: "Tickets", action: "unchanged", endpointId: existing[0]!.id, changedFields: [] },
      { method: "GET", slug: "other", name: "Renamed", action: "replace", endpointId: existing[1]!.id, changedFields: ["name", "enabled", "response"] },
      { method: "PUT", slug: "tickets", name: "Tickets", action: "create", endpointId: null, changedFields: [] },
    ]);
  });

  it("tells a changed step order and a changed header apart from equal definitions", () => {
    const two = [
      { type: "query", name: "a", schema: "tickets" },
      { type: "query", name: "b", schema: "tickets" },
    ];
    const [reordered] = planEndpointImport([input({ steps: [...two].reverse() })], [stored({ steps: two })]);
    expect(reordered).toMatchObject({ action: "replace", changedFields: ["steps"] });
    const [header] = planEndpointImport([input({ response: { status: 200, contentType: "application/json", body: "{{steps.rows}}", headers: { "x-a": "1" } } })], [stored()]);
    expect(header).toMatchObject({ action: "replace", changedFields: ["response"] });
  });
});
