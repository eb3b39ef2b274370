"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { TextField } from "@/components/ui/field";
import { FormError, Notice } from "@/components/ui/form-error";
import { formatDateTime } from "@/components/ui/format-date";
import { Spinner } from "@/components/ui/spinner";
import type { FormState } from "@/lib/http/action-result";
import { useFormAction } from "@/components/forms/use-form-action";
import { createSecretAction, deleteSecretAction, rotateSecretAction } from "../actions";

export interface SecretRow {
  name: string;
  hint: string;
  updatedAt: Date;
}

/**
 * The project's secrets for admins: names, masked hints and dates (values never reach the browser
 * after saving), a form to add one, and per secret a rotation dialog and a two-click delete.
 */
export function SecretsSettings({ projectId, secrets }: { projectId: string; secrets: SecretRow[] }) {
  return (
    <div className="space-y-6">
      <AddSecretForm projectId={projectId} />
      {secrets.length === 0 ? (
        <EmptyState title="No secrets yet" description="Add an API key or token above, then use it as {{secrets.NAME}} in an HTTP, webhook or email step." />
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Project secrets</caption>
            <thead className="border-b border-slate-100 text-xs whitespace-nowrap uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Name
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Value
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Updated
                </th>
                <th scope="col" className="py-2 pl-3 text-right font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {secrets.map((secret) => (
                <tr key={secret.name}>
                  <td className="py-3 pr-3 font-mono text-xs font-medium text-slate-900">{secret.name}</td>
                  <td className="px-3 py-3">
                    <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs whitespace-nowrap text-slate-700" aria-label={`Masked value ${secret.hint}`}>
                      {secret.hint}
                    </code>
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap text-slate-500">{formatDateTime(secret.updatedAt)}</td>
                  <td className="py-3 pl-3">
                    <div className="flex items-center justify-end gap-2">
                      <RotateSecretButton projectId={projectId} name={secret.name} />
                      <ConfirmAction
                        label="Delete"
                        accessibleLabel={`Delete secret ${secret.name}`}
                        confirmLabel="Delete secret"
                        question="Steps that use it will fail until it is added again."
                        action={() => deleteSecretAction(projectId, secret.name)}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function AddSecretForm({ projectId }: { projectId: string }) {
  const { state, pending, formRef, onSubmit } = useFormAction(createSecretAction.bind(null, projectId), { resetOnSuccess: true });
  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-4" aria-label="Add a secret">
      <FormError message={state.fieldErrors ? undefined : state.error} issues={state.otherIssues} />
      {state.ok && state.message && <Notice>{state.message}</Notice>}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="secret-name"
          name="name"
          label="Name"
          required
          maxLength={64}
          pattern="[A-Z][A-Z0-9_]{0,63}"
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          defaultValue={state.ok ? undefined : state.values?.name}
          error={state.fieldErrors?.name}
          hint="Upper-case letters, digits and _, e.g. STRIPE_KEY."
        />
        <TextField
          id="secret-value"
          name="value"
          type="password"
          label="Value"
          required
          autoComplete="new-password"
          spellCheck={false}
          error={state.fieldErrors?.value}
          hint="Up to 8 KB. Stored encrypted; it cannot be shown again."
        />
      </div>
      <Button type="submit" variant="secondary" busy={pending}>
        {pending && <Spinner />}
        Add secret
      </Button>
    </form>
  );
}

function RotateSecretButton({ projectId, name }: { projectId: string; name: string }) {
  const { state, pending, formRef, onSubmit } = useFormAction(rotateSecretAction.bind(null, projectId, name), { resetOnSuccess: true });
  // The dialog stays open for the answer it was opened on and for failures; a success closes it.
  const [openedOn, setOpenedOn] = useState<FormState | null>(null);
  const open = openedOn !== null && (state === openedOn || !state.ok);
  const fieldId = `rotate-${name}-value`;
  return (
    <>
      {state.ok && !open && state.message && (
        <span role="status" className="text-xs text-emerald-700">
          Rotated
          <span className="sr-only">: {state.message}</span>
        </span>
      )}
      <Button variant="secondary" size="sm" aria-label={`Rotate secret ${name}`} onClick={() => setOpenedOn(state)}>
        Rotate
      </Button>
      <Dialog open={open} onClose={() => setOpenedOn(null)} title={`Rotate ${name}`} description="The new value replaces the old one for every run from now on.">
        <form ref={formRef} onSubmit={onSubmit} className="space-y-4">
          <FormError message={state.fieldErrors ? undefined : state.error} issues={state.otherIssues} />
          <TextField id={fieldId} name="value" type="password" label="New value" required autoComplete="new-password" spellCheck={false} error={state.fieldErrors?.value} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpenedOn(null)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" busy={pending}>
              {pending && <Spinner />}
              Save new value
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
