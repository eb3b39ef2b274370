/**
 * Response headers the platform owns, by kind of answer. What owners author is served where it
 * cannot act as the dashboard (STYLE.md pattern 12): every invocation answer runs in a sandbox with an
 * opaque origin; the dashboard's own pages run under a strict, nonce-based Content-Security-Policy.
 */

/**
 * The sandbox of every invocation answer, without `allow-same-origin`: an HTML answer runs in an
 * opaque origin (`window.origin === "null"`), so it reads no cookie or storage of this host and every
 * request it makes to the dashboard is cross-origin, without credentials it could read back.
 * The tokens keep an owner's own page working as a page: its scripts run (`allow-scripts`), its forms
 * post (`allow-forms`), its links open new tabs (`allow-popups`) that are ordinary pages of wherever
 * they lead (`allow-popups-to-escape-sandbox`), `alert`/`confirm` work (`allow-modals`) and so do
 * download links (`allow-downloads`). Left out: `allow-same-origin` (the point), `allow-top-navigation*`
 * (a framed answer may not navigate the page that frames it) and the device and storage-access tokens.
 */
export const INVOCATION_SANDBOX = "sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads";

/** Put last on every invocation answer (success, errors, 404s, preflights, cached answers). */
export const INVOCATION_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": INVOCATION_SANDBOX,
  "x-content-type-options": "nosniff",
});

/**
 * Route handlers answer data, never pages: nothing in them may run, be framed or be sniffed into
 * HTML. `sandbox` keeps that true even where a handler's own policy would be replaced by this one
 * (the file download route sets the same).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
});

/** next-auth's own routes: redirects, JSON and its plain error and sign-out pages, which post forms to themselves. */
export const AUTH_ROUTE_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": "frame-ancestors 'none'; form-action 'self'; object-src 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "strict-origin-when-cross-origin",
});

/** Features the dashboard never uses, switched off so nothing embedded or injected can ask for them. */
const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()";
const HSTS = "max-age=31536000";

export interface PagePolicyOptions {
  /** React's development build evaluates code for its error overlay and refresh. */
  development: boolean;
  /** Served over https: browsers are told to stay on https, and http subresources are upgraded. */
  https: boolean;
}

/**
 * The dashboard's Content-Security-Policy as Next.js documents it for nonces: Next reads the nonce
 * from this header on the request and puts it on its own scripts; `'strict-dynamic'` lets those load
 * the page's chunks. Styles are the compiled stylesheet plus the style attributes React and Next
 * write (the route announcer, progress and focus helpers), hence `'unsafe-inline'` for styles only:
 * a nonce beside it would switch it off, and CSS cannot run script.
 */
export function dashboardContentSecurityPolicy(nonce: string, options: PagePolicyOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

export function dashboardPageHeaders(nonce: string, options: PagePolicyOptions): Record<string, string> {
  return {
    "content-security-policy": dashboardContentSecurityPolicy(nonce, options),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": PERMISSIONS_POLICY,
    ...(options.https ? { "strict-transport-security": HSTS } : {}),
  };
}

/** 128 random bits, base64: unguessable and fresh for every page. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
