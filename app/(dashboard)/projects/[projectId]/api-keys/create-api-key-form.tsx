"use client";

import { startTransition, useActionState, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/field";
import { FieldError, FormError } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import type { PermissionGroup } from "@/components/projects/permission-groups";
import { EMPTY_FORM_STATE, type FormState } from "@/lib/http/action-result";
import { createApiKeyAction, type CreatedApiKey } from "../actions";

const DEFAULT_PERMISSIONS = ["endpoints.invoke"];

export function CreateApiKeyForm({ projectId, groups }: { projectId: string; groups: PermissionGroup[] }) {
  const [state, dispatch, pending] = useActionState<FormState<CreatedApiKey>, FormData>(createApiKeyAction.bind(null, projectId), EMPTY_FORM_STATE);
  const [dismissedId, setDismissedId] = useState<string>();
  const revealed = state.data && state.data.id !== dismissedId ? state.data : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    startTransition(() => dispatch(formData));
  }

  return (
    <div className="space-y-5">
      {revealed && (
        <section aria-label="New API key" className="rounded-lg border border-amber-300 bg-amber-50 p-4">
          <div className="flex items-start justify-between gap-4">
            <div className="min-w-0 flex-1">
              <h3 className="text-sm font-semibold text-amber-900">API key “{revealed.name}” created</h3>
              <p className="mt-1 text-sm text-amber-900">
                <strong>Copy it now: you will not see it again.</strong> Only a hash is stored. If you lose the key, create a new one and revoke this one.
              </p>
            </div>
            <Button variant="secondary" size="sm" onClick={() => setDismissedId(revealed.id)}>
              I have copied it
            </Button>
          </div>
          <div className="mt-3 flex items-center gap-2">
            <label htmlFor="new-api-key" className="sr-only">
              New API key
            </label>
            <input
              id="new-api-key"
              readOnly
              value={revealed.key}
              onFocus={(event) => event.currentTarget.select()}
              className="min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-sm text-slate-900"
            />
            <CopyButton value={revealed.key} label="Copy key" />
          </div>
        </section>
      )}

      {/* A new key remounts the form: its fields start empty again. */}
      <form key={state.data?.id ?? "form"} onSubmit={onSubmit} className="space-y-5" aria-label="Create an API key">
        <FormError message={state.fieldErrors ? undefined : state.error} issues={state.otherIssues} />
        <TextField
          id="api-key-name"
          name="name"
          label="Key name"
          placeholder="Production website"
          required
          maxLength={100}
          defaultValue={state.data ? undefined : state.values?.name}
          error={state.fieldErrors?.name}
          hint="Say where the key is used, so you know which one to revoke."
        />
        <PermissionFields groups={groups} error={state.fieldErrors?.permissions} />
        <Button type="submit" busy={pending}>
          {pending && <Spinner />}
          Create API key
        </Button>
      </form>
    </div>
  );
}

function PermissionFields({ groups, error }: { groups: PermissionGroup[]; error?: string }) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set(DEFAULT_PERMISSIONS));
  function set(ids: string[], on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }
  return (
    <div>
      <p className="text-sm font-medium text-slate-700" id="permissions-label">
        Permissions
      </p>
      <p className="text-xs text-slate-500">Give the key only what its user needs. A website that calls your endpoints needs only endpoints.invoke.</p>
      <FieldError id="permissions-error" message={error} />
      <div className="mt-3 grid gap-3 sm:grid-cols-2" role="group" aria-labelledby="permissions-label">
        {groups.map((group) => {
          const ids = group.permissions.map((permission) => permission.id);
          const all = ids.every((id) => selected.has(id));
          return (
            <fieldset key={group.area} className="rounded-lg border border-slate-200 p-3">
              <legend className="sr-only">{group.label}</legend>
              <div className="flex items-center justify-between">
                <span className="text-sm font-semibold text-slate-900" aria-hidden="true">
                  {group.label}
                </span>
                <button
                  type="button"
                  className="text-xs font-medium text-indigo-600 hover:text-indigo-500"
                  onClick={() => set(ids, !all)}
                  aria-label={`${all ? "Clear" : "Select all"} ${group.label.toLowerCase()} permissions`}
                >
                  {all ? "Clear" : "Select all"}
                </button>
              </div>
              <ul className="mt-2 space-y-1.5">
                {group.permissions.map((permission) => (
                  <li key={permission.id}>
                    <label className="flex cursor-pointer items-start gap-2 text-sm">
                      <input
                        type="checkbox"
                        name="permissions"
                        value={permission.id}
                        checked={selected.has(permission.id)}
                        onChange={(event) => set([permission.id], event.target.checked)}
                        className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
                      />
                      <span>
                        <span className="font-mono text-xs text-slate-900">{permission.id}</span>
                        <span className="block text-xs text-slate-500">{permission.description}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          );
        })}
      </div>
    </div>
  );
}
