import { createElement, type ComponentProps, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { loadForInput } from "@/components/ui/use-on-first-input";
import { newStepDraft, type StepDraft } from "./endpoint-draft";
import { FieldShell } from "@/components/ui/field";
import { lastRunStaleness, snapshotTestRun } from "./last-run-staleness";
import { loadPreviewExpression, SlugSuggestion } from "./live-previews";
import { StepRunResultView } from "./step-run-result";
import { preloadStepForms, StepSettings } from "./step-settings";
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

// The forms are chunks of their own: a static render (no Suspense retry) needs them loaded first.
beforeAll(() => preloadStepForms());

describe("the transform's live result", () => {
  // The browser imports the interpreter at the first input; a static render has no effects.
  beforeAll(() => loadForInput(loadPreviewExpression));

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

describe("results of the last test run after an edit", () => {
  const draft = newStepDraft("condition");
  const gate: StepDraft = { ...draft, checks: [{ key: "c-1", left: "{{body.want}}", operator: "equals", right: "open" }] };
  const report = { left: { missing: false, text: '"open"' }, right: { missing: false, text: '"open"' }, passed: true };

  it("mark a condition verdict stale, visibly and in words, once its check was edited", () => {
    const edited: StepDraft = { ...gate, checks: [{ ...gate.checks[0]!, right: "closed" }] };
    const fresh = atStep(0, source({ ...lastRun, testChecks: { "c-1": report }, testStaleness: lastRunStaleness(snapshotTestRun([gate]), [gate]) }), settings(gate));
    expect(fresh).not.toContain("Stale");
    const stale = atStep(0, source({ ...lastRun, testChecks: { "c-1": report }, testStaleness: lastRunStaleness(snapshotTestRun([gate]), [edited]) }), settings(edited));
    expect(stale).toMatch(/<span aria-hidden="true">Stale<\/span><span class="sr-only">Stale result<\/span>: verdict from the last test run, before your edit/);
  });

  it("mark the transform's live result when an earlier step changed since the run", () => {
    const tickets = { ...newStepDraft("query"), name: "tickets" };
    const shape = transform("steps.tickets[].id");
    const edited = { ...tickets, settings: { ...tickets.settings, limit: "1" } };
    const html = atStep(1, source({ ...lastRun, testStaleness: lastRunStaleness(snapshotTestRun([tickets, shape]), [edited, shape]) }), settings(shape));
    expect(html).toContain("earlier steps&#x27; outputs are from the last test run, before your edit to an earlier step");
    expect(atStep(1, source({ ...lastRun, testStaleness: lastRunStaleness(snapshotTestRun([tickets, shape]), [tickets, shape]) }), settings(shape))).not.toContain("Stale");
  });

  it("mark a step card's last output, naming it stale in the output's accessible name", () => {
    const html = renderToStaticMarkup(createElement(StepRunResultView, { stepNumber: 2, result: { status: "ok", durationMs: 3, error: null, output: [1] }, stale: true }));
    expect(html).toContain("output from the last test run, before your edit; run the test again to update it");
    expect(html).toContain('aria-label="Output of step 2 in the last test run, before your edit"');
  });
});
