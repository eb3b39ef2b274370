import { enforceDashboardAuthLimits } from "@/lib/auth/dashboard-auth-rate-limits";
import { createUser, type PublicUser } from "./create-user";

/**
 * Sign-up from the dashboard: createUser behind a per-client-IP limit. Every attempt counts,
 * refused and invalid ones too, so the limit also bounds the scrypt work one client can cause.
 * (The CLI's setup calls createUser directly.)
 */
export async function signUpUser(options: { input: unknown; clientIp: string }): Promise<PublicUser> {
  await enforceDashboardAuthLimits([{ limit: "signUpPerIp", value: options.clientIp }]);
  return createUser(options.input);
}
