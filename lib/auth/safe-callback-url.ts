import { getAppUrl } from "@/lib/app-url";
import { getConfig } from "@/lib/config";

export const DEFAULT_CALLBACK_PATH = "/workspaces";

const MAX_CALLBACK_LENGTH = 2048;
// Browsers drop tabs and newlines inside URLs and read "\" as "/", so "/\t/evil.example" and
// "/\\evil.example" become "//evil.example". Such values are refused outright rather than cleaned.
const CONTROL_OR_BACKSLASH = /[\u0000-\u001f\u007f\\]/;

// Where next-auth places itself when NEXTAUTH_URL is not set (its absolute URLs use this origin).
const NEXT_AUTH_DEFAULT_ORIGIN = "http://localhost:3000";

/**
 * The origins whose absolute URLs are the app's own: APP_URL (lib/app-url.ts) and next-auth's.
 * Accepting one only turns its URLs into paths of the app: the answer is never another origin.
 */
export function ownOrigins(): string[] {
  return [getAppUrl(), getConfig().NEXTAUTH_URL ?? NEXT_AUTH_DEFAULT_ORIGIN];
}

function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Also refused once percent-decoded (`/%09/evil.example`, `/%2F%2Fevil.example`), in case any layer decodes once more. */
function isBrowserRewritable(text: string): boolean {
  const decoded = decodedOrNull(text);
  return decoded === null || CONTROL_OR_BACKSLASH.test(text) || CONTROL_OR_BACKSLASH.test(decoded);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Where to go after sign-in: `value` resolved against the app's own URL, kept only when the result
 * has the app's origin (or one of `allowedOrigins`), and answered as a path (`/projects/p_1?tab=x`)
 * so that what the browser finally follows is the very URL checked here. Anything else — another
 * origin, `javascript:`, a malformed URL, a value browsers would rewrite — falls back to /workspaces.
 */
export function safeCallbackUrl(value: string | string[] | undefined | null, allowedOrigins: readonly string[] = ownOrigins()): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string" || raw === "" || raw.length > MAX_CALLBACK_LENGTH || isBrowserRewritable(raw)) return DEFAULT_CALLBACK_PATH;
  const origins = allowedOrigins.map(originOf).filter((origin): origin is string => origin !== null && origin !== "null");
  const base = origins[0];
  if (!base) return DEFAULT_CALLBACK_PATH;
  let resolved: URL;
  try {
    resolved = new URL(raw, base);
  } catch {
    return DEFAULT_CALLBACK_PATH;
  }
  if (!origins.includes(resolved.origin) || resolved.username || resolved.password) return DEFAULT_CALLBACK_PATH;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // A path starting with "//" is protocol-relative wherever it is written (Location, location.assign).
  const decodedPath = decodedOrNull(resolved.pathname) ?? "//";
  if (!path.startsWith("/") || path.startsWith("//") || decodedPath.startsWith("//") || new URL(path, base).origin !== base) return DEFAULT_CALLBACK_PATH;
  return path;
}
