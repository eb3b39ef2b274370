import Link from "next/link";
import type { ComponentProps } from "react";

/**
 * The dashboard's link: `next/link` without prefetching unless a link asks for it. Every dashboard
 * page renders on demand, so a prefetch fetches a route payload the click would fetch anyway; with
 * the ~11 links of the chrome in view, prefetching cost 22 payloads answered by the server and parsed
 * on the main thread at each page load (docs/ARCHITECTURE.md, Lighthouse).
 */
export function AppLink({ prefetch = false, ...props }: ComponentProps<typeof Link>) {
  return <Link prefetch={prefetch} {...props} />;
}
