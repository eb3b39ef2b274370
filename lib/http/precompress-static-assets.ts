import { readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";

const compress = promisify(brotliCompress);

/**
 * The build's text assets, with the Content-Type Next sends for them; fonts and images in
 * `.next/static/media` are compressed formats already.
 */
export const PRECOMPRESSED_CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".js": "application/javascript; charset=UTF-8",
  ".css": "text/css; charset=UTF-8",
  ".svg": "image/svg+xml",
};
export const BROTLI_SUFFIX = ".br";
/** Below this a compressed copy saves less than its own response headers. */
const MIN_BYTES = 1024;

/** The extension of a file that gets a brotli copy, or undefined. */
export function precompressedExtension(path: string): string | undefined {
  return Object.keys(PRECOMPRESSED_CONTENT_TYPES).find((extension) => path.endsWith(extension));
}

export type PrecompressSummary = { files: number; bytes: number; brotliBytes: number };

/** Every file under `dir`, at any depth; none when it does not exist. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
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
  for (const path of await listFiles(dir)) {
    if (precompressedExtension(path) === undefined) continue;
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
