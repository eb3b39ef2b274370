"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type ChangeEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormError, Notice } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import type { ActionResult } from "@/lib/http/action-result";
import { Textarea } from "./form-controls";

/** What an import answers (endpoints and automations alike). */
export interface ImportResultSummary {
  created: number;
  updated: number;
  secrets?: { missing: string[] };
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
  noun = "endpoints",
}: {
  projectSlug: string;
  exportAction: () => Promise<ActionResult<unknown>>;
  importAction: (document: unknown) => Promise<ActionResult<ImportResultSummary>>;
  noun?: keyof typeof NOUNS;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<{ message: string; issues: string[] }>();
  const [done, setDone] = useState<string>();
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
    if (file) setText(await file.text());
  }

  function submit() {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      setProblem({ message: "That is not valid JSON.", issues: [] });
      return;
    }
    setProblem(undefined);
    startTransition(async () => {
      const result = await importAction(document);
      if (!result.ok) return setProblem({ message: result.error, issues: result.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)) });
      const missing = result.data.secrets?.missing ?? [];
      setDone(
        `Imported: ${result.data.created} created, ${result.data.updated} replaced.` +
          (missing.length > 0 ? ` Missing secrets (create them in the project settings): ${missing.join(", ")}.` : ""),
      );
      setOpen(false);
      setText("");
      router.refresh();
    });
  }

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
      <Dialog open={open} onClose={() => setOpen(false)} title={`Import ${noun}`} description={NOUNS[noun].description}>
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
          <Textarea id="import-document" rows={10} mono value={text} onChange={(event) => setText(event.target.value)} placeholder={NOUNS[noun].placeholder} />
          <FormError message={problem?.message} issues={problem?.issues} />
          {pending && <Notice tone="info">Validating and importing…</Notice>}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={pending}>
              Cancel
            </Button>
            <Button onClick={submit} busy={pending} disabled={text.trim() === ""}>
              {pending && <Spinner />}
              Import
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
