import { getConfig } from "@/lib/config";

/** https as the dashboard's configured URL says, or as a trusted proxy reports it (TRUSTED_PROXY). */
export function servedOverHttps(headers: Headers): boolean {
  const config = getConfig();
  if ((config.APP_URL ?? config.NEXTAUTH_URL)?.startsWith("https:")) return true;
  const trustsProxy = config.TRUSTED_PROXY !== undefined && config.TRUSTED_PROXY !== "none";
  return trustsProxy && headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}
