import { mkdtemp, mkdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { brotliDecompressSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isPrecompressedCopyCurrent, precompressStaticAssets } from "./precompress-static-assets";

const SCRIPT = `export function greet(name) { return "Hello, " + name; }\n`.repeat(200);
const STYLESHEET = `.card { padding: 1rem; color: #0f172a; }\n`.repeat(100);

describe("precompressStaticAssets", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "flowpoint-precompress-"));
    await mkdir(join(dir, "chunks"), { recursive: true });
    await mkdir(join(dir, "media"), { recursive: true });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("writes a brotli copy of each script, stylesheet and SVG that decompresses to the file", async () => {
    await writeFile(join(dir, "chunks", "app.js"), SCRIPT);
    await writeFile(join(dir, "chunks", "app.css"), STYLESHEET);
    await writeFile(join(dir, "media", "icon.svg"), `<svg xmlns="http://www.w3.org/2000/svg">${"<path d='M0 0h24v24H0z'/>".repeat(60)}</svg>`);
    const summary = await precompressStaticAssets(dir);
    expect(summary.files).toBe(3);
    for (const name of ["chunks/app.js", "chunks/app.css", "media/icon.svg"]) {
      const source = await readFile(join(dir, name));
      const copy = await readFile(join(dir, `${name}.br`));
      expect(copy.length, name).toBeLessThan(source.length);
      expect(brotliDecompressSync(copy).equals(source), name).toBe(true);
    }
    expect(summary.bytes).toBe(SCRIPT.length + STYLESHEET.length + (await stat(join(dir, "media", "icon.svg"))).size);
    expect(summary.brotliBytes).toBeLessThan(summary.bytes / 5);
  });

  it("leaves out fonts, files under a kilobyte and files brotli cannot shrink, and removes their stale copies", async () => {
    await writeFile(join(dir, "media", "font.woff2"), randomBytes(4096));
    await writeFile(join(dir, "chunks", "tiny.js"), "export const a = 1;\n");
    await writeFile(join(dir, "chunks", "tiny.js.br"), "stale");
    await writeFile(join(dir, "chunks", "random.js"), randomBytes(8192));
    await writeFile(join(dir, "chunks", "random.js.br"), "stale");
    const summary = await precompressStaticAssets(dir);
    expect(summary).toEqual({ files: 0, bytes: 0, brotliBytes: 0 });
    for (const name of ["media/font.woff2.br", "chunks/tiny.js.br", "chunks/random.js.br"]) {
      await expect(stat(join(dir, name)), name).rejects.toThrow(/ENOENT/);
    }
  });

  it("tells a copy written from the file as it is from one older than the file", async () => {
    const source = join(dir, "chunks", "app.js");
    await writeFile(source, SCRIPT);
    await precompressStaticAssets(dir);
    expect(await isPrecompressedCopyCurrent(source, `${source}.br`)).toBe(true);
    const later = new Date(Date.now() + 60_000);
    await utimes(source, later, later);
    expect(await isPrecompressedCopyCurrent(source, `${source}.br`)).toBe(false);
    expect(await isPrecompressedCopyCurrent(join(dir, "chunks", "missing.js"), `${source}.br`)).toBe(false);
  });
});
