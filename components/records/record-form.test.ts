import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { ActionResult } from "@/lib/http/action-result";
import type { RecordChoice } from "@/lib/records-service/find-record-choices";
import { parseSchemaDefinition } from "@/lib/schemas/schema-definition";
import { RecordForm } from "./record-form";

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }) }));

/**
 * The record form as the server renders it: every control labelled, its hint and errors wired by
 * ids that exist, one control per field type, and the nested groups' buttons named for what they
 * act on (WCAG 2.1: 1.3.1, 2.4.6, 3.3.2, 4.1.2).
 */
const link = parseSchemaDefinition({
  name: "link",
  kind: "component",
  fields: [
    { name: "label", type: "string", required: true },
    { name: "target", type: "relation", target: "pages" },
  ],
});
const quote = parseSchemaDefinition({
  name: "quote",
  kind: "component",
  fields: [
    { name: "text", type: "text" },
    { name: "image", type: "file", accept: [".png"] },
  ],
});
const pages = parseSchemaDefinition({
  name: "pages",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "body", type: "richtext" },
    { name: "views", type: "integer" },
    { name: "published", type: "boolean" },
    { name: "publishAt", type: "datetime" },
    { name: "status", type: "enum", values: ["draft", "live"] },
    { name: "meta", type: "json" },
    { name: "parent", type: "relation", target: "pages" },
    { name: "related", type: "relation", target: "pages", many: true },
    { name: "cover", type: "file", accept: ["image/*"] },
    { name: "links", type: "component", component: "link", repeatable: true },
    { name: "blocks", type: "dynamic_zone", components: ["link", "quote"] },
  ],
});

function render(record: Record<string, unknown> | null): string {
  return renderToStaticMarkup(
    createElement(RecordForm, {
      formId: "record",
      projectId: "prj_test",
      schema: pages,
      components: [link, quote],
      record,
      recordId: record ? "rec_page" : undefined,
      relationChoices: [{ id: "rec_parent", label: "Parent page", detail: "" }],
      submitLabel: "Save record",
      action: async (): Promise<ActionResult<{ id: string }>> => ({ ok: true, data: { id: "rec_page" } }),
      search: async (): Promise<ActionResult<RecordChoice[]>> => ({ ok: true, data: [] }),
    }),
  );
}

const attributes = (tag: string) => Object.fromEntries([...tag.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]));
const tags = (html: string, name: string) => [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, "g"))].map((match) => attributes(match[0]));

describe("record form markup", () => {
  const html = render({
    title: "Home",
    views: 3,
    published: true,
    publishAt: "2025-01-31T12:30:00.000Z",
    status: "live",
    meta: { a: 1 },
    parent: "rec_parent",
    related: ["rec_unknown"],
    cover: "fil_cover",
    links: [{ label: "One", target: null }],
    blocks: [{ __component: "quote", text: "Said", image: "fil_quote" }],
  });

  it("labels every control and points its hint and errors at elements that exist, with unique ids", () => {
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]!);
    expect(new Set(ids).size).toBe(ids.length);
    const labelled = new Set(tags(html, "label").map((label) => label.for));
    const controls = [...tags(html, "input"), ...tags(html, "select"), ...tags(html, "textarea")];
    expect(controls.length).toBeGreaterThan(12);
    for (const control of controls) {
      expect(labelled.has(control.id!), `control ${control.id} has a label`).toBe(true);
      for (const described of (control["aria-describedby"] ?? "").split(" ").filter(Boolean)) expect(ids, `${control.id} → ${described}`).toContain(described);
    }
  });

  it("gives each field type its control, the record's values in them", () => {
    const byId = new Map([...tags(html, "input"), ...tags(html, "select"), ...tags(html, "textarea")].map((control) => [control.id, control]));
    expect(byId.get("record-title")).toMatchObject({ type: "text", value: "Home", "aria-required": "true" });
    expect(byId.get("record-views")).toMatchObject({ type: "number", step: "1", value: "3" });
    expect(byId.get("record-published")).toMatchObject({ type: "checkbox" });
    expect(byId.get("record-publishAt")).toMatchObject({ type: "datetime-local", value: "2025-01-31T12:30:00" });
    expect(byId.get("record-cover")).toMatchObject({ type: "file", accept: "image/*" });
    expect(byId.get("record-parent")).toMatchObject({ role: "combobox", "aria-expanded": "false", "aria-autocomplete": "list", "aria-controls": "record-parent-options" });
    expect(byId.get("record-links-i0-label")).toMatchObject({ value: "One" });
    expect(html).toMatch(/<select[^>]*id="record-status"[^>]*>.*<option value="live" selected="">live<\/option>/s);
    expect(html).toContain('href="/api/projects/prj_test/files/fil_cover"');
    // A file field inside a dynamic-zone entry gets the same control: its file, and a file input.
    expect(byId.get("record-blocks-i0-image")).toMatchObject({ type: "file", accept: ".png" });
    expect(html).toContain('href="/api/projects/prj_test/files/fil_quote"');
    expect(html).toContain('aria-label="Remove file of image"');
    expect(html).toContain("Parent page");
    // An id the page could not find a record for is shown as it is, still removable.
    expect(html).toContain('aria-label="Remove rec_unknown from related"');
  });

  it("makes components and dynamic zones groups whose items can be added, moved and removed by named buttons", () => {
    expect(html).toMatch(/<fieldset[^>]*id="record-links"/);
    expect(html).toMatch(/<legend[^>]*>.*links/s);
    for (const name of [
      "Move links link 1 of 1 up",
      "Move links link 1 of 1 down",
      "Remove links link 1 of 1",
      "Add link to links",
      "Add link to blocks",
      "Add quote to blocks",
      "Remove blocks quote 1 of 1",
    ]) {
      expect(html, name).toContain(`aria-label="${name}"`);
    }
    expect(html).toContain('aria-pressed="false"');
    expect(html).toContain(">Edit as JSON<");
  });

  it("starts a new record empty, with required fields marked", () => {
    const fresh = render(null);
    expect(tags(fresh, "input").find((input) => input.id === "record-title")).toMatchObject({ value: "" });
    expect(fresh).toContain('<span class="sr-only"> (required)</span>');
    expect(fresh).not.toContain("Current file");
  });
});
