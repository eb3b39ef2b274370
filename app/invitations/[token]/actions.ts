"use server";

import { redirect } from "next/navigation";
import { getCurrentUserId } from "@/lib/auth/current-user";
import { getActionClientIp } from "@/lib/auth/get-action-client-ip";
import { acceptDashboardInvitation } from "@/lib/accounts/accept-dashboard-invitation";
import type { FormState } from "@/lib/http/action-result";
import { toActionFailure } from "@/lib/http/action-failure";

export async function acceptInvitationAction(token: string, _previous: FormState, _formData: FormData): Promise<FormState> {
  const userId = await getCurrentUserId({ returnTo: `/invitations/${encodeURIComponent(token)}` });
  let workspaceId: string;
  try {
    workspaceId = (await acceptDashboardInvitation({ token, userId, clientIp: await getActionClientIp() })).workspaceId;
  } catch (error) {
    return toActionFailure(error, { action: "accept-invitation" });
  }
  redirect(`/workspaces/${workspaceId}`);
}
