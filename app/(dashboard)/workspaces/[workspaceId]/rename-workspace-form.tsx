"use client";

import { TextField } from "@/components/ui/field";
import { FormError, Notice } from "@/components/ui/form-error";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useFormAction } from "@/components/forms/use-form-action";
import { renameWorkspaceAction } from "./actions";

export function RenameWorkspaceForm({ workspaceId, name, canEdit }: { workspaceId: string; name: string; canEdit: boolean }) {
  const { state, pending, formRef, onSubmit } = useFormAction(renameWorkspaceAction.bind(null, workspaceId));
  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-3">
      <FormError message={state.fieldErrors?.name ? undefined : state.error} />
      {state.ok && state.message && <Notice>{state.message}</Notice>}
      <TextField
        id="workspace-rename"
        name="name"
        label="Workspace name"
        defaultValue={name}
        required
        maxLength={80}
        disabled={!canEdit}
        error={state.fieldErrors?.name}
        hint={canEdit ? undefined : "Only workspace admins can rename the workspace."}
      />
      {canEdit && (
        <Button type="submit" variant="secondary" size="sm" busy={pending}>
          {pending && <Spinner />}
          Rename
        </Button>
      )}
    </form>
  );
}
