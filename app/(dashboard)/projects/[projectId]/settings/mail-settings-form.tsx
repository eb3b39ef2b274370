"use client";

import { Button } from "@/components/ui/button";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { TextField } from "@/components/ui/field";
import { FormError, Notice } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import { useFormAction } from "@/components/forms/use-form-action";
import { removeMailSettingsAction, updateMailSettingsAction } from "../actions";
import type { MailSettingsView } from "./read-stored-mail-settings";

/** SMTP settings. The stored password is never sent to the browser: an empty field keeps it. */
export function MailSettingsForm({ projectId, settings, canEdit }: { projectId: string; settings: MailSettingsView | null; canEdit: boolean }) {
  const { state, pending, formRef, onSubmit } = useFormAction(updateMailSettingsAction.bind(null, projectId));
  const errors = state.fieldErrors ?? {};
  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-4" aria-label="Mail server">
      <FormError message={state.fieldErrors ? undefined : state.error} issues={state.otherIssues} />
      {state.ok && state.message && <Notice>{state.message}</Notice>}
      {!settings && <Notice tone="info">No mail server yet: mail this project sends is kept in the Mailbox, where you can read it while you develop.</Notice>}
      <fieldset disabled={!canEdit} className="space-y-4">
        <legend className="sr-only">SMTP server</legend>
        <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
          <TextField id="mail-host" name="host" label="SMTP host" placeholder="smtp.example.com" defaultValue={settings?.host} required error={errors["mail.host"]} />
          <TextField id="mail-port" name="port" type="number" min={1} max={65535} label="Port" defaultValue={settings?.port ?? 587} error={errors["mail.port"]} />
        </div>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input type="checkbox" name="secure" defaultChecked={settings?.secure ?? false} className="mt-0.5 size-4 accent-indigo-600" />
          <span>
            Use TLS from the start
            <span className="block text-xs text-slate-500">Usually port 465. Leave off for port 587, which upgrades with STARTTLS.</span>
          </span>
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField id="mail-user" name="user" label="User" autoComplete="off" defaultValue={settings?.user} error={errors["mail.user"]} />
          <TextField
            id="mail-password"
            name="password"
            type="password"
            label="Password"
            autoComplete="new-password"
            placeholder={settings?.hasPassword ? "•••••••• (unchanged)" : undefined}
            hint={settings?.hasPassword ? "Leave empty to keep the stored password." : undefined}
            error={errors["mail.password"]}
          />
        </div>
        <TextField
          id="mail-from"
          name="from"
          label="From"
          placeholder="Acme <hello@acme.example>"
          defaultValue={settings?.from}
          required
          error={errors["mail.from"]}
          hint="The sender of every message this project sends."
        />
      </fieldset>
      {canEdit && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button type="submit" busy={pending}>
            {pending && <Spinner />}
            Save mail server
          </Button>
          {settings && (
            <ConfirmAction label="Remove mail server" confirmLabel="Remove" question="Mail will go to the Mailbox instead." action={() => removeMailSettingsAction(projectId)} />
          )}
        </div>
      )}
    </form>
  );
}
