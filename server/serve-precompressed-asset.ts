import { readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { relative, sep } from "node:path";
import { BROTLI_SUFFIX, isPrecompressedCopyCurrent, listFiles, PRECOMPRESSED_CONTENT_TYPES, precompressedExtension } from "@/lib/http/precompress-static-assets";

/** Answers the request and returns true, or returns false and leaves it to Next. */
export type AssetHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

type Asset = { body: Buffer; etag: string; contentType: string };

export const STATIC_ASSET_PREFIX = "/_next/static/";
// What Next sends for the same files, so a cached copy is kept as long as Next's own.
const CACHE_CONTROL = "public, max-age=31536000, immutable";

/** Whether an Accept-Encoding header accepts brotli (`br`, not refused with `q=0`). */
export function acceptsBrotli(header: string | undefined): boolean {
  if (header === undefined) return false;
  for (const part of header.split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    if (coding.toLowerCase() !== "br") continue;
    const quality = parameters.find((parameter) => parameter.toLowerCase().startsWith("q="));
    return quality === undefined || Number(quality.slice(2)) > 0;
  }
  return false;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * The brotli copies `npm run build` wrote beside the build's scripts and stylesheets
 * (lib/http/precompress-static-assets.ts), read into memory at start-up (about half a megabyte)
 * and served to browsers that accept brotli. Only files found here are ever answered, so a
 * request's path is a key, never a path on disk; everything else (no copy, a stale copy, a Range
 * request, a client without brotli) goes to Next, which serves the same file gzipped.
 */
export async function createPrecompressedAssetHandler(staticDir: string): Promise<AssetHandler> {
  const assets = new Map<string, Asset>();
  for (const copyPath of await listFiles(staticDir)) {
    if (!copyPath.endsWith(BROTLI_SUFFIX)) continue;
    const sourcePath = copyPath.slice(0, -BROTLI_SUFFIX.length);
    const extension = precompressedExtension(sourcePath);
    if (extension === undefined || !(await isPrecompressedCopyCurrent(sourcePath, copyPath))) continue;
    const [body, info] = await Promise.all([readFile(copyPath), stat(copyPath)]);
    const urlPath = STATIC_ASSET_PREFIX + relative(staticDir, sourcePath).split(sep).join("/");
    assets.set(urlPath, { body, contentType: PRECOMPRESSED_CONTENT_TYPES[extension]!, etag: `"br-${body.length.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"` });
  }

  return (req, res) => {
    if (assets.size === 0 || (req.method !== "GET" && req.method !== "HEAD")) return false;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const asset = assets.get(query === -1 ? url : url.slice(0, query));
    if (asset === undefined || req.headers.range !== undefined || !acceptsBrotli(req.headers["accept-encoding"])) return false;
    const headers = {
      "cache-control": CACHE_CONTROL,
      etag: asset.etag,
      vary: "Accept-Encoding",
      "x-content-type-options": "nosniff",
    };
    if (matchesEtag(req.headers["if-none-match"], asset.etag)) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    res.writeHead(200, { ...headers, "content-type": asset.contentType, "content-encoding": "br", "content-length": asset.body.length });
    res.end(req.method === "HEAD" ? undefined : asset.body);
    return true;
  };
}
