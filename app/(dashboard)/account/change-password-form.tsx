"use client";

import { useActionState } from "react";
import { TextField } from "@/components/ui/field";
import { FormError, Notice } from "@/components/ui/form-error";
import { SubmitButton } from "@/components/ui/submit-button";
import { EMPTY_FORM_STATE } from "@/lib/http/action-result";
import { changePasswordAction } from "./actions";

export function ChangePasswordForm({ minPasswordLength }: { minPasswordLength: number }) {
  const [state, formAction] = useActionState(changePasswordAction, EMPTY_FORM_STATE);
  return (
    <form action={formAction} className="space-y-4">
      <FormError message={state.error} issues={state.otherIssues} />
      {state.ok && state.message && <Notice>{state.message}</Notice>}
      <TextField
        id="currentPassword"
        name="currentPassword"
        type="password"
        label="Current password"
        autoComplete="current-password"
        required
        error={state.fieldErrors?.currentPassword}
      />
      <TextField
        id="newPassword"
        name="newPassword"
        type="password"
        label="New password"
        autoComplete="new-password"
        required
        minLength={minPasswordLength}
        hint={`At least ${minPasswordLength} characters. Changing it signs you out everywhere else.`}
        error={state.fieldErrors?.newPassword}
      />
      <SubmitButton pendingLabel="Changing…">Change password</SubmitButton>
    </form>
  );
}
