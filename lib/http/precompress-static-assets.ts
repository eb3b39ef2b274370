import { readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";

const compress = promisify(brotliCompress);

/** The build's text assets; fonts and images in `.next/static/media` are compressed formats already. */
export const PRECOMPRESSED_EXTENSIONS = [".js", ".css", ".svg"] as const;
export const BROTLI_SUFFIX = ".br";
/** Below this a compressed copy saves less than its own response headers. */
const MIN_BYTES = 1024;

export type PrecompressSummary = { files: number; bytes: number; brotliBytes: number };

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Writes `<file>.br` beside each script, stylesheet and SVG of the build (`npm run build` runs it on
 * `.next/static`), at brotli's highest quality, which costs seconds once at build time instead of CPU on
 * every response: Next's server compresses with gzip only, and brotli makes the dashboard's scripts
 * ~15 % smaller (server/serve-precompressed-asset.ts serves them). A copy that would not be smaller is
 * not written, and a stale one is removed.
 */
export async function precompressStaticAssets(dir: string): Promise<PrecompressSummary> {
  const summary: PrecompressSummary = { files: 0, bytes: 0, brotliBytes: 0 };
  for await (const path of walk(dir)) {
    if (!PRECOMPRESSED_EXTENSIONS.some((extension) => path.endsWith(extension))) continue;
    const source = await readFile(path);
    const target = path + BROTLI_SUFFIX;
    const compressed =
      source.length < MIN_BYTES
        ? null
        : await compress(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          });
    if (compressed === null || compressed.length >= source.length) {
      await unlink(target).catch(() => undefined);
      continue;
    }
    await writeFile(target, compressed);
    summary.files += 1;
    summary.bytes += source.length;
    summary.brotliBytes += compressed.length;
  }
  return summary;
}

/** Whether `<file>.br` was written from the file as it is now (a rebuild in place leaves older copies). */
export async function isPrecompressedCopyCurrent(sourcePath: string, copyPath: string): Promise<boolean> {
  const [source, copy] = await Promise.all([stat(sourcePath).catch(() => null), stat(copyPath).catch(() => null)]);
  return source !== null && copy !== null && copy.mtimeMs >= source.mtimeMs;
}
