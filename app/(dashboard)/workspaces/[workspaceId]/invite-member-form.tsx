"use client";

import { TextField } from "@/components/ui/field";
import { FormError, Notice } from "@/components/ui/form-error";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useFormAction } from "@/components/forms/use-form-action";
import { inviteMemberAction } from "./actions";

export function InviteMemberForm({ workspaceId }: { workspaceId: string }) {
  const { state, pending, formRef, onSubmit } = useFormAction(inviteMemberAction.bind(null, workspaceId), { resetOnSuccess: true });
  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-3" aria-label="Invite a member">
      <FormError message={state.fieldErrors?.email ? undefined : state.error} issues={state.otherIssues} />
      {state.ok && state.message && <Notice>{state.message}</Notice>}
      <div className="grid gap-3 sm:grid-cols-[1fr_9rem_auto] sm:items-end">
        <TextField id="invite-email" name="email" type="email" label="Email address" placeholder="teammate@example.com" required error={state.fieldErrors?.email} />
        <div>
          <Label htmlFor="invite-role">Role</Label>
          <Select id="invite-role" name="role" className="mt-1" defaultValue="member">
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </Select>
        </div>
        <Button type="submit" busy={pending} className="sm:mb-0">
          {pending && <Spinner />}
          Send invitation
        </Button>
      </div>
      <p className="text-xs text-slate-500">Members work with project content. Admins also manage members, project settings and API keys.</p>
    </form>
  );
}
