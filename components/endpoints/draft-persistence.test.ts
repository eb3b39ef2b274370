import { describe, expect, it } from "vitest";
import { newAutomationDraft, toAutomationInput, type AutomationDraft } from "@/components/automations/automation-draft";
import { newEndpointDraft, newRow, newStepDraft, toEndpointInput, type EndpointDraft } from "./endpoint-draft";
import { draftStorageKey, hasShapeOf, hasUnsavedChanges, readStoredDraft, serializeStoredDraft, withFreshKeys } from "./draft-persistence";

function savedEndpoint(): EndpointDraft {
  return { ...newEndpointDraft(), name: "Open tickets", slug: "open-tickets", steps: [newStepDraft("query")] };
}

const isEndpointDraft = (value: unknown): value is EndpointDraft => hasShapeOf(value, newEndpointDraft());
let counter = 0;
const makeKey = (old: string) => `restored-${old}-${++counter}`;
const at = new Date("2026-11-24T21:05:00.000Z");

describe("draft persistence", () => {
  it("keys entries per editor, project and saved definition, and per project for a new one", () => {
    expect(draftStorageKey("endpoint", "prj_1", "ep_1")).not.toBe(draftStorageKey("endpoint", "prj_1", "ep_2"));
    expect(draftStorageKey("endpoint", "prj_1", null)).not.toBe(draftStorageKey("endpoint", "prj_2", null));
    expect(draftStorageKey("endpoint", "prj_1", "x")).not.toBe(draftStorageKey("automation", "prj_1", "x"));
  });

  it("compares what a draft would save, not the keys of its rows and steps", () => {
    const saved = savedEndpoint();
    expect(hasUnsavedChanges(withFreshKeys(saved, makeKey), saved, toEndpointInput)).toBe(false);
    expect(hasUnsavedChanges({ ...saved, slug: "closed-tickets" }, saved, toEndpointInput)).toBe(true);
    expect(hasUnsavedChanges({ ...saved, steps: [] }, saved, toEndpointInput)).toBe(true);
  });

  it("restores a stored draft that differs from the saved one, with fresh keys and its time", () => {
    const saved = savedEndpoint();
    const draft: EndpointDraft = { ...saved, name: "Open tickets v2", response: { ...saved.response, headers: [newRow("X-Total", "1")] } };
    const text = serializeStoredDraft({ draft, saved, toInput: toEndpointInput, now: at });
    const offer = readStoredDraft(text, { saved, toInput: toEndpointInput, isDraft: isEndpointDraft, makeKey });
    expect(offer).not.toBeNull();
    expect(offer!.storedAt.toISOString()).toBe(at.toISOString());
    expect(offer!.savedChangedSince).toBe(false);
    expect(toEndpointInput(offer!.draft)).toEqual(toEndpointInput(draft));
    expect(offer!.draft.steps[0]!.key).not.toBe(draft.steps[0]!.key);
    expect(offer!.draft.response.headers[0]!.key).toMatch(/^restored-/);
  });

  it("says when the definition was saved again after the draft was stored", () => {
    const saved = savedEndpoint();
    const text = serializeStoredDraft({ draft: { ...saved, group: "Support" }, saved, toInput: toEndpointInput, now: at });
    const savedSince = { ...saved, name: "Renamed elsewhere" };
    expect(readStoredDraft(text, { saved: savedSince, toInput: toEndpointInput, isDraft: isEndpointDraft, makeKey })?.savedChangedSince).toBe(true);
  });

  it("offers nothing for no entry, broken text, another format, another shape or a draft equal to the saved one", () => {
    const saved = savedEndpoint();
    const options = { saved, toInput: toEndpointInput, isDraft: isEndpointDraft, makeKey };
    expect(readStoredDraft(null, options)).toBeNull();
    expect(readStoredDraft("{not json", options)).toBeNull();
    expect(readStoredDraft(JSON.stringify({ format: 99, storedAt: at.toISOString(), draft: saved }), options)).toBeNull();
    expect(readStoredDraft(JSON.stringify({ format: 1, storedAt: "yesterday", draft: saved }), options)).toBeNull();
    expect(readStoredDraft(JSON.stringify({ format: 1, storedAt: at.toISOString(), draft: { ...saved, steps: "none" } }), options)).toBeNull();
    expect(readStoredDraft(serializeStoredDraft({ draft: saved, saved, toInput: toEndpointInput, now: at }), options)).toBeNull();
  });

  it("works the same for automation drafts", () => {
    const saved: AutomationDraft = { ...newAutomationDraft(), name: "Welcome" };
    const draft: AutomationDraft = { ...saved, triggerType: "schedule", steps: [newStepDraft("email")] };
    const text = serializeStoredDraft({ draft, saved, toInput: toAutomationInput, now: at });
    const offer = readStoredDraft(text, {
      saved,
      toInput: toAutomationInput,
      isDraft: (value): value is AutomationDraft => hasShapeOf(value, newAutomationDraft()),
      makeKey,
    });
    expect(offer && toAutomationInput(offer.draft)).toEqual(toAutomationInput(draft));
  });

  it("checks shapes field by field: arrays, objects, null and primitives", () => {
    const template = { name: "", count: 0, list: [] as string[], nested: { a: 1 }, none: null };
    expect(hasShapeOf({ name: "x", count: 2, list: ["a"], nested: {}, none: null, extra: true }, template)).toBe(true);
    expect(hasShapeOf({ name: "x", count: "2", list: [], nested: {}, none: null }, template)).toBe(false);
    expect(hasShapeOf({ name: "x", count: 2, list: {}, nested: {}, none: null }, template)).toBe(false);
    expect(hasShapeOf({ name: "x", count: 2, list: [], nested: [], none: null }, template)).toBe(false);
    expect(hasShapeOf([], template)).toBe(false);
  });

  it("renews only the keys of objects inside arrays (a setting that happens to be named key stays)", () => {
    const value = { key: "top", settings: { key: "setting" }, rows: [{ key: "r1", name: "a" }] };
    expect(withFreshKeys(value, (old) => `new-${old}`)).toEqual({ key: "top", settings: { key: "setting" }, rows: [{ key: "new-r1", name: "a" }] });
  });
});
