import path from "node:path";
import { build } from "esbuild";

/**
 * Compiles Node processes we start ourselves ahead of time, one CommonJS file per entry, named
 * `<name>.cjs` in `outdir` with its source map beside it; packages stay in node_modules. Run
 * through tsx instead, every start compiles the sources again, and esbuild's `keepNames` names each
 * closure the code makes at run time (`__name`): about 2 % of the worker's CPU under load and 0.7 %
 * of the server's (bench/README.md).
 *
 * CommonJS rather than ESM: the code imports packages by subpaths without an extension, as
 * bundlers allow ("next/server"), which Node's ESM resolver refuses and `require` resolves.
 * `outdir` must lie inside the project, so that those requires find its node_modules.
 */
export async function bundleNodeEntries(entries: Readonly<Record<string, string>>, outdir: string): Promise<string[]> {
  await build({
    entryPoints: entries,
    outdir,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    platform: "node",
    target: `node${process.versions.node.split(".")[0]}`,
    format: "cjs",
    packages: "external",
    tsconfig: "tsconfig.json",
    sourcemap: true,
    logLevel: "warning",
  });
  return Object.keys(entries).map((name) => path.join(outdir, `${name}.cjs`));
}
