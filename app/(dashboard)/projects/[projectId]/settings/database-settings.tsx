"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Notice } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/components/ui/cn";
import { useFormAction } from "@/components/forms/use-form-action";
import { DatabaseFields, type ConnectionTestOutcome, type DatabaseKind } from "@/components/projects/database-fields";
import { DatabaseBadge } from "@/components/projects/database-badge";
import { connectionTestOutcome } from "@/lib/projects/connection-test-outcome";
import { testCurrentDatabaseAction, testDatabaseAction, updateDatabaseAction } from "../actions";

/** The current database (masked), a test of it, and a form to change it. */
export function DatabaseSettings({ projectId, kind, hint, canEdit }: { projectId: string; kind: DatabaseKind; hint: string | null; canEdit: boolean }) {
  const [changing, setChanging] = useState(false);
  const [outcome, setOutcome] = useState<ConnectionTestOutcome>();
  const [testing, startTest] = useTransition();
  const { state, pending, formRef, onSubmit } = useFormAction(async (previous, formData) => {
    const result = await updateDatabaseAction(projectId, previous, formData);
    if (result.ok) {
      setChanging(false);
      setOutcome(undefined);
    }
    return result;
  });
  const takeOverError = state.fieldErrors?.["database.takeOver"];

  return (
    <div className="space-y-4">
      {state.ok && state.message && <Notice>{state.message}</Notice>}
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-slate-50/60 p-3">
        <div className="min-w-0">
          <DatabaseBadge kind={kind} />
          <p className="mt-1 truncate font-mono text-xs text-slate-600" data-testid="database-hint">
            {hint ?? "The built-in database, stored with Flowpoint."}
          </p>
        </div>
        {canEdit && (
          <div className="flex items-center gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={testing}
              onClick={() =>
                startTest(async () => {
                  setOutcome(undefined);
                  setOutcome(connectionTestOutcome(await testCurrentDatabaseAction(projectId)));
                })
              }
            >
              {testing && <Spinner />}
              Test current connection
            </Button>
            {!changing && (
              <Button variant="secondary" size="sm" onClick={() => setChanging(true)}>
                Change database
              </Button>
            )}
          </div>
        )}
      </div>
      {outcome && (
        <p role="status" className={cn("text-sm", outcome.ok ? "text-emerald-700" : "text-rose-700")}>
          {outcome.ok ? "✓ " : "✕ "}
          {outcome.message}
        </p>
      )}
      {changing && (
        <form ref={formRef} onSubmit={onSubmit} className="space-y-4 rounded-lg border border-slate-200 p-4" aria-label="Change database">
          <FormError message={state.fieldErrors ? undefined : state.error} issues={state.otherIssues} />
          <DatabaseFields
            defaultKind={kind === "local" ? "postgres" : kind}
            urlError={state.fieldErrors?.["database.url"]}
            kindError={state.fieldErrors?.["database.kind"]}
            testConnection={async (input) => connectionTestOutcome(await testDatabaseAction(projectId, input))}
          />
          <p className="text-xs text-slate-500">Records are not copied between databases: the project starts reading and writing the new one.</p>
          <div className={cn("rounded-md border p-3", takeOverError ? "border-rose-300 bg-rose-50/60" : "border-slate-200")}>
            <label className="flex items-start gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                name="database.takeOver"
                className="mt-0.5 size-4 accent-indigo-600"
                aria-describedby={`${projectId}-take-over-hint`}
                aria-invalid={takeOverError ? true : undefined}
              />
              <span>Take over this database if another project uses it</span>
            </label>
            <p id={`${projectId}-take-over-hint`} className="mt-1 pl-6 text-xs text-slate-600">
              {takeOverError ? "This database is already attached to another Flowpoint project. " : "A database serves one project only. "}
              Tick this only if you mean to move it here: the other project stops reading and writing it, and this project sees the records it left there.
            </p>
          </div>
          <div className="flex gap-2">
            <Button type="submit" busy={pending}>
              {pending && <Spinner />}
              Save database
            </Button>
            <Button variant="ghost" onClick={() => setChanging(false)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
