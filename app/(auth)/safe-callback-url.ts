/** Only same-site paths are followed after sign-in: `?callbackUrl=https://evil.example` falls back to /workspaces. */
export function safeCallbackUrl(value: string | string[] | undefined | null): string {
  const url = Array.isArray(value) ? value[0] : value;
  if (!url || !url.startsWith("/") || url.startsWith("//") || url.startsWith("/\\")) return "/workspaces";
  return url;
}
