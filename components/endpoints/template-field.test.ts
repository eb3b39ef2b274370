import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { describeWarningPath } from "./saved-warnings";
import { TemplateInput, TemplateTextarea } from "./template-field";
import { FlowTemplatesProvider, TemplatePositionProvider, testOutputsOf, type FlowTemplateSource } from "./template-scope";

const source: FlowTemplateSource = {
  steps: [
    { type: "query", name: "tickets", schema: "tickets" },
    { type: "create", name: "made", schema: "tickets" },
  ],
  schemas: [{ name: "tickets", kind: "collection", fields: [{ name: "title", type: "string" }] }],
  owner: { kind: "endpoint", auth: "public" },
};

function inFlow(at: number | "response", child: ReactNode): string {
  return renderToStaticMarkup(createElement(FlowTemplatesProvider, { source }, createElement(TemplatePositionProvider, { at }, child)));
}

const noop = () => {};

describe("template fields", () => {
  it("are comboboxes with a closed list inside a flow editor, and describe the placeholders that will not resolve", () => {
    const html = inFlow(1, createElement(TemplateInput, { id: "f", value: "{{steps.tickets.0.title}} {{steps.made.id}} {{steps.tickets.0.nope}}", onValueChange: noop }));
    expect(html).toContain('role="combobox"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('aria-controls="f-suggestions"');
    expect(html).toContain('aria-autocomplete="list"');
    expect(html).toContain('aria-describedby="f-placeholders"');
    expect(html).toContain("2 placeholders will not resolve:");
    expect(html).toContain("{{steps.made.id}}</code> this is step 2 (made)&#x27;s own output, which exists only after it ran");
    expect(html).toContain("{{steps.tickets.0.nope}}</code> steps.tickets.0 (tickets record) has no field &quot;nope&quot;");
    expect(html).toMatch(/<code class="[^"]*decoration-wavy[^"]*">\{\{steps\.made\.id\}\}<\/code>/);
    expect(html).not.toContain("{{steps.tickets.0.title}}</code>");
  });

  it("keep the field's own description and show no warning when every placeholder resolves", () => {
    const html = inFlow("response", createElement(TemplateTextarea, { id: "body", value: "{{steps.made.title}}", onValueChange: noop, "aria-describedby": "body-hint" }));
    expect(html).toContain('aria-describedby="body-hint"');
    expect(html).not.toContain("will not resolve");
    expect(html).toContain("<textarea");
    // A textarea keeps its textbox role (ARIA in HTML allows it no other) and still points at the list.
    expect(html).not.toContain('role="combobox"');
    expect(html).not.toContain("aria-expanded");
    expect(html).toContain('aria-autocomplete="list"');
    expect(html).toContain('aria-controls="body-suggestions"');
    expect(html).toMatch(/<ul id="body-suggestions" role="listbox" aria-label="Placeholder suggestions" hidden=""/);
  });

  it("are plain inputs outside a flow editor's steps and response", () => {
    const html = renderToStaticMarkup(createElement(TemplateInput, { id: "plain", value: "{{steps.nope}}", onValueChange: noop }));
    expect(html).not.toContain("combobox");
    expect(html).not.toContain("will not resolve");
  });
});

describe("editor helpers", () => {
  it("keeps the outputs of steps that ran, by output name", () => {
    expect(
      testOutputsOf([
        { name: "tickets", status: "ok", output: [{ id: "1" }] },
        { name: null, status: "ok", output: { x: 1 } },
        { name: "failed", status: "failed", output: null },
      ]),
    ).toEqual({ tickets: [{ id: "1" }] });
  });

  it("names warning paths for people", () => {
    expect(describeWarningPath("steps.2.filters")).toBe("Step 3, filters");
    expect(describeWarningPath("steps.0.values.title")).toBe("Step 1, values.title");
    expect(describeWarningPath("response.headers.X-Total")).toBe("Response, headers.X-Total");
  });
});
