"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import { useFormAction } from "@/components/forms/use-form-action";
import { DatabaseFields } from "@/components/projects/database-fields";
import { connectionTestOutcome } from "@/lib/projects/connection-test-outcome";
import { createProjectAction, testNewProjectDatabaseAction } from "./actions";

export function CreateProjectDialog({ workspaceId, triggerLabel = "New project" }: { workspaceId: string; triggerLabel?: string }) {
  const [open, setOpen] = useState(false);
  const { state, pending, formRef, onSubmit } = useFormAction(createProjectAction.bind(null, workspaceId));
  const generalError = state.fieldErrors && !state.otherIssues?.length ? undefined : state.error;
  return (
    <>
      <Button onClick={() => setOpen(true)}>{triggerLabel}</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Create a project" description="A project has its own database, endpoints, schemas and API keys.">
        <form ref={formRef} onSubmit={onSubmit} className="space-y-5">
          <FormError message={generalError} issues={state.otherIssues} />
          <TextField id="project-name" name="name" label="Project name" placeholder="Website" required maxLength={80} error={state.fieldErrors?.name} autoFocus />
          <DatabaseFields
            urlError={state.fieldErrors?.["database.url"]}
            kindError={state.fieldErrors?.["database.kind"]}
            canTestLocal={false}
            testConnection={async (input) => connectionTestOutcome(await testNewProjectDatabaseAction(workspaceId, input))}
          />
          <div className="flex justify-end gap-2 border-t border-slate-100 pt-4">
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" busy={pending}>
              {pending && <Spinner />}
              Create project
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
