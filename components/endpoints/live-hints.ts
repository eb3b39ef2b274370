import { SLUG_PATTERN } from "@/lib/endpoints/endpoint-constants";
import type { ErrorIssue } from "@/lib/errors";
import { hasPlaceholders } from "@/lib/flow/engine/render-template";
import { classifyAddress, describeAddressKind, parseHost } from "@/lib/outbound/address-policy";

/**
 * The editors' hints that need no schema (slug suggestions, outbound hosts that will be refused)
 * and the merging of live issues with the server's. Apart from live-checks.ts, which validates with
 * the flow schemas (zod and the JMESPath compiler) and is loaded at the owner's first input on the page.
 */

/** The schema-based live checks, imported at the owner's first input (for useOnFirstInput). */
export const loadLiveChecks = () => import("./live-checks");

const SLUG_MAX = 64;
const ALLOWLIST_NOTE = " (private, loopback and link-local hosts are blocked unless the server's OUTBOUND_ALLOWED_HOSTS lists them).";

/** The slug a name or a mistyped slug most likely means: lowercase ASCII letters, digits and single dashes, ≤ 64. */
export function suggestSlug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
}

/** A suggestion for a slug that breaks the rules, or null when it is fine, empty or nothing better exists. */
export function slugSuggestion(slug: string): string | null {
  const trimmed = slug.trim();
  if (trimmed === "" || SLUG_PATTERN.test(trimmed)) return null;
  const suggestion = suggestSlug(trimmed);
  return suggestion === "" || suggestion === trimmed ? null : suggestion;
}

/**
 * Issues to show: the server's from the last save or test run, then the live ones at paths the
 * server said nothing about (its message is the fuller one, as it knows the project).
 */
export function withLiveIssues(server: readonly ErrorIssue[], live: readonly ErrorIssue[]): ErrorIssue[] {
  const covered = new Set(server.map((issue) => issue.path));
  return [...server, ...live.filter((issue) => !covered.has(issue.path))];
}

/**
 * Why an outbound URL will be refused when it runs, or null: its host is `localhost` or an IP literal
 * (any spelling a browser accepts) that is not public. Names are only resolved at run time, and a
 * host made of placeholders is unknown until then, so neither is judged here.
 */
export function outboundHostWarning(urlTemplate: string): string | null {
  const text = urlTemplate.trim();
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(text)?.[1];
  if (authority === undefined || hasPlaceholders(authority)) return null;
  let hostname: string;
  try {
    hostname = new URL(text.replace(/\{\{[^}]*\}\}/g, "x")).hostname;
  } catch {
    return null;
  }
  const host = parseHost(hostname);
  if (host.kind === "name") {
    if (host.name === "localhost" || host.name.endsWith(".localhost") || host.name === "localhost.") {
      return `${host.name} is a loopback host: the step's request will be refused when it runs${ALLOWLIST_NOTE}`;
    }
    return null;
  }
  if (host.kind !== "ip") return null;
  const classification = classifyAddress(host.address);
  if (classification.kind === "public") return null;
  return `${host.address} is ${describeAddressKind(classification)}: the step's request will be refused when it runs${ALLOWLIST_NOTE}`;
}
