import { getConfig } from "@/lib/config";

/** The public base URL of the dashboard, for links in emails. */
export function getAppUrl(): string {
  const config = getConfig();
  return (config.APP_URL ?? config.NEXTAUTH_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}
