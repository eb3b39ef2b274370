import { describe, expect, it } from "vitest";
import { STEP_CATALOG } from "./catalog";
import { STEP_DEFINITIONS } from "./registry";
import { STEP_KINDS } from "./step-kind";

describe("the step catalog (what the editors know without zod)", () => {
  it("lists the kinds the registry defines, in the editor's order", () => {
    expect(STEP_KINDS).toEqual(["query", "transform", "condition", "create", "update", "http", "webhook", "email"]);
    expect(Object.keys(STEP_DEFINITIONS).sort()).toEqual([...STEP_KINDS].sort());
  });

  it.each(STEP_KINDS)("%s: the defaults name every setting of the definition, and the definition carries the entry", (kind) => {
    const entry = STEP_CATALOG[kind];
    const definition = STEP_DEFINITIONS[kind];
    // The editor builds a step's fields from the defaults' keys (endpoint-draft.ts, step-card.tsx).
    expect(Object.keys(entry.defaults).sort()).toEqual(Object.keys(definition.settings.shape).sort());
    expect({ id: definition.id, label: definition.label, description: definition.description, defaults: definition.defaults, editor: definition.editor }).toEqual(entry);
  });
});
