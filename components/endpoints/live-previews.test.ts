import { createElement, type ComponentProps, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { newStepDraft, type StepDraft } from "./endpoint-draft";
import { FieldShell } from "./form-controls";
import { SlugSuggestion } from "./live-previews";
import { StepSettings } from "./step-settings";
import { FlowTemplatesProvider, TemplatePositionProvider, type FlowTemplateSource } from "./template-scope";
import { Input } from "@/components/ui/input";

const noop = () => {};

function source(extra: Partial<FlowTemplateSource> = {}): FlowTemplateSource {
  return {
    steps: [
      { type: "query", name: "tickets", schema: "tickets", enabled: true },
      { type: "transform", name: "shape", enabled: true },
    ],
    schemas: [{ name: "tickets", kind: "collection", fields: [{ name: "status", type: "string" }] }],
    owner: { kind: "endpoint", auth: "public" },
    ...extra,
  };
}

function atStep(at: number, flow: FlowTemplateSource, child: ReactNode): string {
  return renderToStaticMarkup(createElement(FlowTemplatesProvider, { source: flow }, createElement(TemplatePositionProvider, { at }, child)));
}

function settings(step: StepDraft): ReactNode {
  return createElement(StepSettings, { step, onChange: noop, issues: [], schemas: [], emailTemplates: [] });
}

function transform(expression: string): StepDraft {
  const draft = newStepDraft("transform");
  return { ...draft, settings: { ...draft.settings, expression } };
}

const lastRun = {
  testOutputs: {
    tickets: [
      { id: "t1", status: "open" },
      { id: "t2", status: "closed" },
    ],
    shape: "own output",
  },
  testRequest: { body: { want: "open" }, query: {}, user: null },
};

describe("the transform's live result", () => {
  it("shows the expression's result over the last test run's context, with a status region for screen readers", () => {
    const html = atStep(1, source(lastRun), settings(transform("steps.tickets[?status==$.body.want].id")));
    expect(html).toContain("Result against the last test run");
    expect(html).toContain('aria-label="Transform result against the last test run"');
    expect(html).toContain(JSON.stringify(["t1"], null, 2).replace(/"/g, "&quot;"));
    expect(html).toMatch(/<p role="status" class="sr-only">/);
  });

  it("does not let a step read its own output from the last run", () => {
    const html = atStep(1, source(lastRun), settings(transform("steps.shape")));
    expect(html).toMatch(/>null<\/pre>/);
  });

  it("shows a run error over this context, and asks for a test run before there is one", () => {
    expect(atStep(1, source(lastRun), settings(transform("sum(steps.tickets[].id)")))).toMatch(/transform failed: /);
    expect(atStep(1, source(), settings(transform("steps.tickets")))).toContain("Run a test below to see this expression&#x27;s result");
  });
});

describe("condition verdicts of the last test run", () => {
  it("are shown under each check row that ran", () => {
    const draft = newStepDraft("condition");
    const step: StepDraft = {
      ...draft,
      checks: [
        { key: "c-1", left: "{{body.want}}", operator: "equals", right: "open" },
        { key: "c-2", left: "{{body.nope}}", operator: "exists", right: "" },
      ],
    };
    const html = atStep(
      0,
      source({
        ...lastRun,
        testChecks: {
          "c-1": { left: { missing: false, text: '"open"' }, right: { missing: false, text: '"open"' }, passed: true },
          "c-2": { left: { missing: true, text: "{{body.nope}}" }, right: null, passed: false },
        },
      }),
      settings(step),
    );
    expect(html).toContain(`id="${step.key}-c-1-verdict"`);
    expect(html).toMatch(
      /Last test run: left <code[^>]*>&quot;open&quot;<\/code>, right <code[^>]*>&quot;open&quot;<\/code> → <span class="[^"]*text-emerald-800[^"]*">passed<\/span>/,
    );
    expect(html).toMatch(/Last test run: left <code[^>]*>\{\{body.nope\}\}<\/code> \(not found\) → <span class="[^"]*text-rose-700[^"]*">failed<\/span>/);
  });
});

describe("URL host warnings", () => {
  it("warn in amber under an outbound URL to a loopback host and describe the field", () => {
    const draft = newStepDraft("http");
    const step = { ...draft, settings: { ...draft.settings, url: "http://127.0.0.1:9000/hook" } };
    const html = atStep(0, source(), settings(step));
    expect(html).toMatch(new RegExp(`<p id="${step.key}-url-warning" class="mt-1 text-sm text-amber-800">`));
    expect(html).toMatch(new RegExp(`aria-describedby="[^"]*${step.key}-url-warning`));
    expect(html).toContain("127.0.0.1 is a loopback address");
  });
});

describe("field errors and suggestions", () => {
  it("describe a control by its error through FieldShell, and offer a slug in one click", () => {
    // What JSX would build: the control is FieldShell's children.
    const slugField: ComponentProps<typeof FieldShell> = {
      id: "endpoint-slug",
      label: "Slug",
      error: "Must be 1–64 lowercase letters, digits or dashes",
      footer: createElement(SlugSuggestion, { slug: "Open Tickets", onUse: noop }),
      children: createElement(Input, { id: "endpoint-slug", value: "Open Tickets", invalid: true, onChange: noop }),
    };
    const html = renderToStaticMarkup(createElement(FieldShell, slugField));
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="endpoint-slug-error"');
    expect(html).toContain('<p id="endpoint-slug-error"');
    expect(html).toContain("open-tickets</code>");
    expect(html).toContain('aria-label="Use suggestion open-tickets"');
    expect(renderToStaticMarkup(createElement(SlugSuggestion, { slug: "open-tickets", onUse: noop }))).toBe("");
  });
});
