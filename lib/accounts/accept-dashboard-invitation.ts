import { enforceDashboardAuthLimits } from "@/lib/auth/dashboard-auth-rate-limits";
import { acceptInvitation } from "@/lib/workspaces/accept-invitation";

/**
 * The invitation page's accept button: acceptInvitation behind limits per user and per client IP,
 * so nobody can try tokens (or learn invited addresses from the refusals) at speed.
 */
export async function acceptDashboardInvitation(options: { token: string; userId: string; clientIp: string }): Promise<{ workspaceId: string }> {
  await enforceDashboardAuthLimits([
    { limit: "acceptInvitationPerUser", value: options.userId },
    { limit: "acceptInvitationPerIp", value: options.clientIp },
  ]);
  return acceptInvitation({ token: options.token, userId: options.userId });
}
