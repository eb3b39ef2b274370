"use client";

import { useActionState } from "react";
import { TextField } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { SubmitButton } from "@/components/ui/submit-button";
import { EMPTY_FORM_STATE } from "@/lib/http/action-result";
import { createWorkspaceAction } from "./actions";

export function CreateWorkspaceForm() {
  const [state, formAction] = useActionState(createWorkspaceAction, EMPTY_FORM_STATE);
  return (
    <form action={formAction} className="space-y-4">
      <FormError message={state.fieldErrors?.name ? undefined : state.error} issues={state.otherIssues} />
      <TextField
        id="workspace-name"
        name="name"
        label="Workspace name"
        placeholder="Acme Inc."
        required
        maxLength={80}
        defaultValue={state.values?.name}
        error={state.fieldErrors?.name}
        hint="Usually your company or team. You can rename it later."
      />
      <SubmitButton pendingLabel="Creating…">Create workspace</SubmitButton>
    </form>
  );
}
