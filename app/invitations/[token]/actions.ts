"use server";

import { redirect } from "next/navigation";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { acceptInvitation } from "@/lib/workspaces/accept-invitation";
import type { FormState } from "@/components/forms/form-state";
import { toFormState } from "@/components/forms/to-form-state";

export async function acceptInvitationAction(token: string, _previous: FormState, _formData: FormData): Promise<FormState> {
  const userId = await getCurrentUserId({ returnTo: `/invitations/${token}` });
  let workspaceId: string;
  try {
    workspaceId = (await acceptInvitation({ token, userId })).workspaceId;
  } catch (error) {
    return toFormState(error, { action: "accept-invitation" });
  }
  redirect(`/workspaces/${workspaceId}`);
}
