/** The last part of `npm run build`: brotli copies of the build's scripts and stylesheets (lib/http/precompress-static-assets.ts). */
import { join } from "node:path";
import { precompressStaticAssets } from "@/lib/http/precompress-static-assets";

const dir = join(process.cwd(), ".next", "static");
const started = performance.now();
const { files, bytes, brotliBytes } = await precompressStaticAssets(dir);
const kB = (value: number): string => `${(value / 1024).toFixed(1)} kB`;
console.log(
  `Brotli copies of ${files} static assets in ${((performance.now() - started) / 1000).toFixed(1)} s: ${kB(bytes)} -> ${kB(brotliBytes)} (served to browsers that accept br)`,
);
