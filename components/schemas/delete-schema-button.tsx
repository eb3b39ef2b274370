"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import type { ActionResult } from "@/lib/http/action-result";

/**
 * Deletes a schema after a confirmation. The service refuses to delete records silently: when the
 * schema has records the first attempt answers how many, and a second, explicit confirmation
 * deletes them with it.
 */
export function DeleteSchemaButton({
  projectId,
  name,
  action,
}: {
  projectId: string;
  name: string;
  action: (confirm: boolean) => Promise<ActionResult<{ deletedRecords: number }>>;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [recordsWarning, setRecordsWarning] = useState<string>();
  const [error, setError] = useState<{ message: string; issues: string[] }>();
  const [pending, startTransition] = useTransition();

  function close() {
    setOpen(false);
    setRecordsWarning(undefined);
    setError(undefined);
  }

  function run(confirm: boolean) {
    setError(undefined);
    startTransition(async () => {
      const result = await action(confirm);
      if (result.ok) {
        router.push(`/projects/${projectId}/schemas`);
        router.refresh();
        return;
      }
      if (result.code === "conflict" && result.issues.some((issue) => issue.path === "confirm")) {
        const count = /(\d+) records?/.exec(result.error)?.[1];
        setRecordsWarning(count ? `${name} still has ${count === "1" ? "1 record" : `${count} records`}.` : result.error);
      } else setError({ message: result.error, issues: result.issues.map((issue) => issue.message) });
    });
  }

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Delete schema
      </Button>
      <Dialog open={open} onClose={close} title={`Delete schema ${name}?`} description="Endpoints that use it will fail until they are changed.">
        <div className="space-y-4">
          <FormError message={error?.message} issues={error?.issues} />
          {recordsWarning ? (
            <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
              <p className="font-medium">{recordsWarning}</p>
              <p className="mt-1">They are deleted from your database with the schema, for good.</p>
            </div>
          ) : (
            <p className="text-sm text-slate-600">The definition is deleted. If the schema has records, you will be asked again before they are deleted.</p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={pending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => run(Boolean(recordsWarning))} busy={pending}>
              {pending && <Spinner />}
              {recordsWarning ? "Delete schema and records" : "Delete schema"}
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
