"use client";

import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormError, Notice } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import { useFormAction } from "@/components/forms/use-form-action";
import { updateGeneralSettingsAction } from "../actions";

export interface GeneralSettingsFormProps {
  projectId: string;
  name: string;
  logRetentionDays: number;
  openapiPublic: boolean;
  canEdit: boolean;
}

export function GeneralSettingsForm({ projectId, name, logRetentionDays, openapiPublic, canEdit }: GeneralSettingsFormProps) {
  const { state, pending, formRef, onSubmit } = useFormAction(updateGeneralSettingsAction.bind(null, projectId));
  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-4">
      <FormError message={state.fieldErrors ? undefined : state.error} issues={state.otherIssues} />
      {state.ok && state.message && <Notice>{state.message}</Notice>}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="project-name" name="name" label="Project name" defaultValue={name} required maxLength={80} disabled={!canEdit} error={state.fieldErrors?.name} />
        <TextField
          id="log-retention"
          name="logRetentionDays"
          type="number"
          min={1}
          max={365}
          label="Keep execution logs for (days)"
          defaultValue={logRetentionDays}
          disabled={!canEdit}
          error={state.fieldErrors?.logRetentionDays}
          hint="1 to 365 days. Logs live in your database."
        />
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input type="checkbox" name="openapiPublic" defaultChecked={openapiPublic} disabled={!canEdit} className="mt-0.5 size-4 accent-indigo-600" />
        <span>
          Anyone may read the OpenAPI document
          <span className="block text-xs text-slate-600">
            Serves <code>/api/projects/{projectId}/openapi.json</code> without an API key (limited to 60 reads a minute per IP). It lists your schemas and enabled endpoints, never
            records or secrets.
          </span>
        </span>
      </label>
      {canEdit && (
        <Button type="submit" variant="secondary" busy={pending}>
          {pending && <Spinner />}
          Save
        </Button>
      )}
    </form>
  );
}
