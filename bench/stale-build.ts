import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * What the production build bundles into `.next`. The bench compiles the server's and the worker's own
 * entries from the sources at every run (compiled-entries.ts) but reuses `.next`, so a source changed
 * since the build would be measured half old: the custom server's copy of a module new, Next's copy
 * old (a run on 2026-12-07 called a store method that Next's copy did not have yet).
 */
const BUNDLED_SOURCES = ["app", "components", "lib", "server", "instrumentation.ts", "proxy.ts", "next.config.mjs", "postcss.config.mjs", "package-lock.json"];
const BUILD_MARKER = ".next/BUILD_ID";

function newestChange(entry: string): { file: string; mtimeMs: number } | null {
  if (!existsSync(entry)) return null;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return entry.endsWith(".test.ts") || entry.endsWith(".test.tsx") ? null : { file: entry, mtimeMs: stats.mtimeMs };
  let newest: { file: string; mtimeMs: number } | null = null;
  for (const name of readdirSync(entry)) {
    const found = newestChange(path.join(entry, name));
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

/**
 * Why `.next` must be built (again) before measuring, or null when it is current: it is missing, or a
 * bundled source (tests aside) changed after it was built.
 */
export function staleBuildReason(root: string): string | null {
  const marker = path.join(root, BUILD_MARKER);
  if (!existsSync(marker)) return "no production build yet";
  const builtAt = statSync(marker).mtimeMs;
  for (const entry of BUNDLED_SOURCES) {
    const changed = newestChange(path.join(root, entry));
    if (changed && changed.mtimeMs > builtAt) return `${path.relative(root, changed.file)} changed after the last build`;
  }
  return null;
}
