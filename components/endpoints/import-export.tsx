"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type ChangeEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormError, Notice } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import type { ActionResult } from "@/lib/http/action-result";
import { Textarea } from "./form-controls";

/** One endpoint of an import plan (lib/endpoints/plan-endpoint-import.ts). */
export interface ImportPlanChange {
  method: string;
  slug: string;
  name: string;
  action: "create" | "replace" | "unchanged";
  changedFields: string[];
}

/** What an import answers (endpoints and automations alike; only endpoints answer a plan). */
export interface ImportResultSummary {
  created: number;
  updated: number;
  unchanged?: number;
  changes?: ImportPlanChange[];
  secrets?: { missing: string[] };
}

const ACTION_WORDS: Record<ImportPlanChange["action"], string> = { create: "Create", replace: "Replace", unchanged: "Unchanged" };
const ACTION_TONES: Record<ImportPlanChange["action"], string> = {
  create: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  replace: "bg-amber-50 text-amber-900 ring-amber-200",
  unchanged: "bg-slate-50 text-slate-700 ring-slate-200",
};

/** The dry run's answer: what applying the document would do, endpoint by endpoint, in words. */
function ImportPlan({ plan }: { plan: ImportResultSummary }) {
  const changes = plan.changes ?? [];
  const missing = plan.secrets?.missing ?? [];
  return (
    <section aria-labelledby="import-plan-heading" className="space-y-2">
      <h3 id="import-plan-heading" className="text-sm font-semibold text-slate-900">
        What the import will do
      </h3>
      <p role="status" className="text-sm text-slate-700">
        {plan.created} to create, {plan.updated} to replace, {plan.unchanged ?? 0} unchanged.
      </p>
      <ul className="max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-md ring-1 ring-slate-200" aria-label="Endpoints in the document">
        {changes.map((change) => (
          <li key={`${change.method} ${change.slug}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
            <span className={`rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${ACTION_TONES[change.action]}`}>{ACTION_WORDS[change.action]}</span>
            <span className="font-mono text-xs text-slate-800">
              {change.method} /{change.slug}
            </span>
            <span className="text-slate-700">{change.name}</span>
            {change.action === "replace" && <span className="basis-full text-xs text-slate-600">Changes: {change.changedFields.join(", ")}</span>}
          </li>
        ))}
      </ul>
      {missing.length > 0 && <Notice tone="warning">These secrets are used but missing in this project (create them in the project settings): {missing.join(", ")}.</Notice>}
    </section>
  );
}

const NOUNS = {
  endpoints: {
    description: "Paste or upload an export. Endpoints with the same method and slug are replaced; the others are created. Nothing is written if anything is invalid.",
    placeholder: '{"format": "flowpoint.endpoints", "version": 1, "endpoints": [...]}',
  },
  automations: {
    description: "Paste or upload an export. Automations with the same name are replaced; the others are created. Nothing is written if anything is invalid.",
    placeholder: '{"format": "flowpoint.automations", "version": 1, "automations": [...]}',
  },
} as const;

/**
 * Export downloads the project's endpoints (or automations) as JSON; Import takes such a document
 * (pasted or uploaded) and creates or replaces them (endpoints by method and slug, automations by name).
 */
export function ImportExportButtons({
  projectSlug,
  exportAction,
  importAction,
  previewable = false,
  noun = "endpoints",
}: {
  projectSlug: string;
  exportAction: () => Promise<ActionResult<unknown>>;
  importAction: (document: unknown, options?: { dryRun?: boolean }) => Promise<ActionResult<ImportResultSummary>>;
  /** The import action answers a dry run: the dialog shows the plan first and applies it on request. */
  previewable?: boolean;
  noun?: keyof typeof NOUNS;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<{ message: string; issues: string[] }>();
  const [done, setDone] = useState<string>();
  const [plan, setPlan] = useState<ImportResultSummary>();
  const [exportError, setExportError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const [exporting, startExport] = useTransition();

  function download() {
    setExportError(undefined);
    startExport(async () => {
      const result = await exportAction();
      if (!result.ok) return setExportError(result.error);
      const blob = new Blob([`${JSON.stringify(result.data, null, 2)}\n`], { type: "application/json" });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `${projectSlug}-${noun}.json`;
      link.click();
      URL.revokeObjectURL(link.href);
    });
  }

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) editText(await file.text());
  }

  function parsedDocument(): { ok: true; document: unknown } | { ok: false } {
    try {
      return { ok: true, document: JSON.parse(text) as unknown };
    } catch {
      setProblem({ message: "That is not valid JSON.", issues: [] });
      return { ok: false };
    }
  }

  function showFailure(result: Extract<ActionResult<ImportResultSummary>, { ok: false }>) {
    setProblem({ message: result.error, issues: result.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)) });
  }

  function preview() {
    const parsed = parsedDocument();
    if (!parsed.ok) return;
    setProblem(undefined);
    startTransition(async () => {
      const result = await importAction(parsed.document, { dryRun: true });
      // Updates after an await leave the transition: without this the plan's status would show while the pending notice still does.
      startTransition(() => (result.ok ? setPlan(result.data) : showFailure(result)));
    });
  }

  function submit() {
    const parsed = parsedDocument();
    if (!parsed.ok) return;
    setProblem(undefined);
    startTransition(async () => {
      const result = await importAction(parsed.document);
      if (!result.ok) return showFailure(result);
      const missing = result.data.secrets?.missing ?? [];
      setDone(
        `Imported: ${result.data.created} created, ${result.data.updated} replaced` +
          (result.data.unchanged ? `, ${result.data.unchanged} unchanged.` : ".") +
          (missing.length > 0 ? ` Missing secrets (create them in the project settings): ${missing.join(", ")}.` : ""),
      );
      close();
      router.refresh();
    });
  }

  function close() {
    setOpen(false);
    setText("");
    setPlan(undefined);
    setProblem(undefined);
  }

  function editText(value: string) {
    setText(value);
    // A plan describes the text it was made for.
    setPlan(undefined);
  }

  const nothingToApply = plan !== undefined && plan.created === 0 && plan.updated === 0;

  return (
    <>
      {exportError && (
        <span role="alert" className="text-sm text-rose-700">
          {exportError}
        </span>
      )}
      {done && (
        <span role="status" className="text-sm text-emerald-700">
          {done}
        </span>
      )}
      <Button variant="secondary" size="sm" onClick={download} disabled={exporting}>
        {exporting && <Spinner />}
        Export
      </Button>
      <Button variant="secondary" size="sm" onClick={() => (setDone(undefined), setOpen(true))}>
        Import
      </Button>
      <Dialog open={open} onClose={close} title={`Import ${noun}`} description={NOUNS[noun].description}>
        <div className="space-y-3">
          <input
            type="file"
            accept="application/json,.json"
            onChange={readFile}
            aria-label="Upload an export file"
            className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-50"
          />
          <label htmlFor="import-document" className="sr-only">
            Export document
          </label>
          <Textarea id="import-document" rows={10} mono value={text} onChange={(event) => editText(event.target.value)} placeholder={NOUNS[noun].placeholder} />
          <FormError message={problem?.message} issues={problem?.issues} />
          {plan && <ImportPlan plan={plan} />}
          {pending && <Notice tone="info">{previewable && !plan ? "Validating and comparing…" : "Validating and importing…"}</Notice>}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={pending}>
              Cancel
            </Button>
            {previewable && !plan ? (
              <Button onClick={preview} busy={pending} disabled={text.trim() === ""}>
                {pending && <Spinner />}
                Preview changes
              </Button>
            ) : nothingToApply ? (
              // Not a disabled Apply: the focus stays on the button the preview was asked with.
              <Button onClick={close}>Done</Button>
            ) : (
              <Button onClick={submit} busy={pending} disabled={text.trim() === ""}>
                {pending && <Spinner />}
                {previewable ? "Apply import" : "Import"}
              </Button>
            )}
          </div>
          {nothingToApply && <p className="text-right text-xs text-slate-600">Every endpoint is already as the document has it: nothing to apply.</p>}
        </div>
      </Dialog>
    </>
  );
}
