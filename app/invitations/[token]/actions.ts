"use server";

import { redirect } from "next/navigation";
import { getActionClientIp } from "@/lib/auth/get-action-client-ip";
import { acceptDashboardInvitation } from "@/lib/accounts/accept-dashboard-invitation";
import type { FormState } from "@/lib/http/action-result";
import { userAction } from "@/lib/http/user-action";

export const acceptInvitationAction = userAction(
  async ({ userId }, token: string, _previous: FormState, _formData: FormData) => {
    const { workspaceId } = await acceptDashboardInvitation({ token, userId, clientIp: await getActionClientIp() });
    redirect(`/workspaces/${workspaceId}`);
  },
  { name: "accept-invitation", returnTo: (token) => `/invitations/${encodeURIComponent(token)}` },
);
