"use client";

/*
 * The dashboard's Content-Security-Policy allows no eval (proxy.ts). When zod builds an object schema
 * it probes for eval with `new Function("")` to compile a faster parser; in the browser the probe is
 * refused and reported as a violation on every page that loads a schema. Switched off here, in the
 * root layout's first client module, before any schema module is evaluated; servers keep the
 * compiled parsers.
 *
 * Without importing zod: zod keeps its configuration on `globalThis.__zod_globalConfig` (created
 * with `??=`, so an object set first is the one it uses), and an import here put zod (~31 kB
 * compressed) on every page, also those whose client code uses no schema (sign-in, analytics).
 * browser-runtime-config.test.ts checks that zod reads the setting from there.
 */
export function configureZodForBrowser(): void {
  const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  (holder.__zod_globalConfig ??= {}).jitless = true;
}

if (typeof window !== "undefined") configureZodForBrowser();

/** Rendered once by the root layout so that this module runs first in the browser. */
export function BrowserRuntimeConfig(): null {
  return null;
}
