"use client";

import { z } from "zod";

/*
 * The dashboard's Content-Security-Policy allows no eval (proxy.ts). When zod builds an object schema
 * it probes for eval with `new Function("")` to compile a faster parser; in the browser the probe is
 * refused and reported as a violation on every page that loads a schema. Switched off here, in the
 * root layout's first client module, before any schema module is evaluated; servers keep the
 * compiled parsers.
 */
if (typeof window !== "undefined") z.config({ jitless: true });

/** Rendered once by the root layout so that this module runs first in the browser. */
export function BrowserRuntimeConfig(): null {
  return null;
}
