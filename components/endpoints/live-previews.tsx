"use client";

import { useMemo } from "react";
import type { CheckReport, OperandReport } from "@/lib/flow/steps/condition/explain-run-checks";
import { CodeBlock } from "@/components/ui/code-block";
import { useOnFirstInput } from "@/components/ui/use-on-first-input";
import { useDebouncedValue } from "@/components/ui/use-debounced-value";
import { slugSuggestion } from "./live-hints";
import { useLastRunContext, useLastRunContextStale } from "./template-scope";

/** Said (and shown) wherever a result of the last test run no longer describes the draft. */
export const BEFORE_YOUR_EDIT = "from the last test run, before your edit";

/** A visible, spoken mark on a result the owner's edits have overtaken; the next test run removes it. */
export function StaleMark({ detail }: { detail: string }) {
  return (
    <span className="rounded border border-amber-300 bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-900">
      <span aria-hidden="true">Stale</span>
      <span className="sr-only">Stale result</span>: {detail}
    </span>
  );
}

/** How long typing must pause before the preview runs, and before a screen reader hears what changed. */
const PREVIEW_DELAY_MS = 150;
const ANNOUNCE_DELAY_MS = 1_000;

/**
 * A transform's result over the last test run's context, updated as the expression is typed (by
 * the step's own compiler, interpreter and limits). A compile error is the field's error; a run
 * error (a wrong type over this data) is shown here. The visible result is not a live region;
 * a short summary is announced once typing pauses.
 */
/** The transform's compiler and interpreter (JMESPath), imported at the owner's first input on the page (useOnFirstInput). */
export const loadPreviewExpression = () => import("@/lib/flow/steps/transform/preview-expression");

export function TransformPreview({ id, expression }: { id: string; expression: string }) {
  const lastRun = useLastRunContext();
  // The expression is evaluated live, but over the outputs earlier steps had in that run.
  const staleContext = useLastRunContextStale();
  const settledExpression = useDebouncedValue(expression, PREVIEW_DELAY_MS);
  const settledRun = useDebouncedValue(lastRun, PREVIEW_DELAY_MS);
  const previews = useOnFirstInput(loadPreviewExpression);
  // Until the interpreter has arrived the preview says what it says for an empty expression.
  const preview = useMemo(
    () => (settledRun === null || previews === null ? null : previews.previewExpression(settledExpression, settledRun)),
    [previews, settledExpression, settledRun],
  );
  const summary =
    preview === null || preview.kind === "empty"
      ? ""
      : preview.kind === "result"
        ? `Result against the last test run${staleContext ? `, whose earlier step outputs are ${BEFORE_YOUR_EDIT}` : ""}: ${preview.summary}.`
        : preview.stage === "run"
          ? `The expression fails over the last test run: ${preview.message}`
          : "";
  const announcement = useDebouncedValue(summary, ANNOUNCE_DELAY_MS);

  if (lastRun === null) {
    return (
      <p id={id} className="mt-2 text-xs text-slate-600">
        Run a test below to see this expression&apos;s result here as you type.
      </p>
    );
  }
  return (
    <div id={id} className="mt-2">
      <p className="flex flex-wrap items-center gap-2 text-xs font-medium text-slate-700">
        Result against the last test run
        {staleContext && <StaleMark detail={`earlier steps' outputs are ${BEFORE_YOUR_EDIT} to an earlier step`} />}
      </p>
      {preview?.kind === "result" && (
        <>
          <CodeBlock label="Transform result against the last test run" className="mt-1 max-h-64 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-slate-800">
            {preview.text}
          </CodeBlock>
          {preview.truncated && <p className="mt-1 text-xs text-slate-600">Showing the first {previews?.PREVIEW_MAX_CHARS.toLocaleString("en")} characters.</p>}
        </>
      )}
      {preview?.kind === "error" && preview.stage === "run" && <p className="mt-1 text-sm text-rose-700">{preview.message}</p>}
      {preview?.kind === "error" && preview.stage === "compile" && <p className="mt-1 text-xs text-slate-600">No result while the expression does not compile.</p>}
      {(preview === null || preview.kind === "empty") && <p className="mt-1 text-xs text-slate-600">Type an expression to see its result.</p>}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}

function Operand({ report }: { report: OperandReport }) {
  return report.missing ? (
    <>
      <code className="font-mono text-slate-800">{report.text}</code> (not found)
    </>
  ) : (
    <code className="font-mono text-slate-800">{report.text}</code>
  );
}

/**
 * How the last test run decided one condition check: the operands it read and the verdict, marked
 * stale once the check or a step before it is edited (the verdict may no longer hold).
 */
export function CheckVerdict({ id, report, stale = false }: { id: string; report: CheckReport; stale?: boolean }) {
  return (
    <p id={id} className="mt-1 text-xs break-all text-slate-600">
      {stale && (
        <>
          <StaleMark detail={`verdict ${BEFORE_YOUR_EDIT}`} />{" "}
        </>
      )}
      Last test run: left <Operand report={report.left} />
      {report.right && (
        <>
          , right <Operand report={report.right} />
        </>
      )}{" "}
      → <span className={report.passed ? "font-semibold text-emerald-800" : "font-semibold text-rose-700"}>{report.passed ? "passed" : "failed"}</span>
    </p>
  );
}

/** A warning under a URL whose host the outbound guard will refuse (amber text, 4.5:1 or better on white). */
export function FieldWarning({ id, message }: { id: string; message: string | null }) {
  if (message === null) return null;
  return (
    <p id={id} className="mt-1 text-sm text-amber-800">
      <span aria-hidden="true">⚠ </span>
      <span className="sr-only">Warning: </span>
      {message}
    </p>
  );
}

/** Under a slug that breaks the rules: the slug it most likely means, applied in one click. */
export function SlugSuggestion({ slug, onUse }: { slug: string; onUse: (slug: string) => void }) {
  const suggestion = slugSuggestion(slug);
  if (suggestion === null) return null;
  return (
    <p className="mt-1 flex flex-wrap items-center gap-x-2 text-sm text-slate-700">
      <span>
        Suggested: <code className="font-mono text-slate-900">{suggestion}</code>
      </span>
      <button
        type="button"
        onClick={() => onUse(suggestion)}
        aria-label={`Use suggestion ${suggestion}`}
        className="rounded font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        Use suggestion
      </button>
    </p>
  );
}
