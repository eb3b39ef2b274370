import { mkdtemp, mkdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressStaticAssets } from "@/lib/http/precompress-static-assets";
import { createRequestRouter } from "./route-request";
import { acceptsBrotli, createPrecompressedAssetHandler } from "./serve-precompressed-asset";

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

const SCRIPT = `export function greet(name) { return "Hello, " + name; }\n`.repeat(200);
const STYLESHEET = `.card { padding: 1rem; color: #0f172a; }\n`.repeat(100);

describe("acceptsBrotli", () => {
  it.each([
    ["gzip, deflate, br, zstd", true],
    ["br", true],
    ["BR;q=0.5", true],
    ["gzip;q=1.0, br; q=0.1", true],
    ["gzip, br;q=0", false],
    ["gzip, deflate", false],
    ["*", false],
    ["", false],
    [undefined, false],
  ])("%s → %s", (header, expected) => {
    expect(acceptsBrotli(header)).toBe(expected);
  });
});

describe("the production server's brotli copies of the build's assets", () => {
  let dir: string;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "flowpoint-assets-"));
    await mkdir(join(dir, "chunks"), { recursive: true });
    await writeFile(join(dir, "chunks", "app.js"), SCRIPT);
    await writeFile(join(dir, "chunks", "app.css"), STYLESHEET);
    await writeFile(join(dir, "chunks", "rebuilt.js"), SCRIPT);
    await precompressStaticAssets(dir);
    // Rewritten after its copy: the copy is stale and must not be served.
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, "chunks", "rebuilt.js"), later, later);
    const handleStaticAsset = await createPrecompressedAssetHandler(dir);
    // Next's place in the router: what it answers shows the request reached it.
    const handleNext = (_req: unknown, res: ServerResponse): void => {
      res.writeHead(200, { "x-answered-by": "next" });
      res.end("next");
    };
    const unexpected = (): never => {
      throw new Error("not an asset path");
    };
    server = createServer(createRequestRouter({ handleInvocation: unexpected, handleRecordsApi: unexpected, handleNext, handleStaticAsset, invocationHost: null }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  function get(path: string, headers: Record<string, string>, method = "GET"): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(`${origin}${path}`, { method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      request.on("error", reject);
      request.end();
    });
  }

  it("answers a script and a stylesheet with their brotli copy, cached as long as Next caches them", async () => {
    for (const [name, source, type] of [
      ["app.js", SCRIPT, "application/javascript; charset=UTF-8"],
      ["app.css", STYLESHEET, "text/css; charset=UTF-8"],
    ] as const) {
      const answer = await get(`/_next/static/chunks/${name}`, { "accept-encoding": "gzip, deflate, br, zstd" });
      expect(answer.status, name).toBe(200);
      expect(answer.headers["content-encoding"], name).toBe("br");
      expect(answer.headers["content-type"], name).toBe(type);
      expect(answer.headers["cache-control"], name).toBe("public, max-age=31536000, immutable");
      expect(answer.headers.vary, name).toBe("Accept-Encoding");
      expect(answer.headers["x-content-type-options"], name).toBe("nosniff");
      expect(Number(answer.headers["content-length"]), name).toBe(answer.body.length);
      expect(answer.body.length, name).toBeLessThan(source.length / 5);
      expect(brotliDecompressSync(answer.body).toString(), name).toBe(source);
    }
  });

  it("answers a query string's path too (Next appends ?dpl= with a deployment id)", async () => {
    const answer = await get("/_next/static/chunks/app.js?dpl=abc", { "accept-encoding": "br" });
    expect(answer.headers["content-encoding"]).toBe("br");
  });

  it("answers HEAD with the headers alone and a matching If-None-Match with 304", async () => {
    const full = await get("/_next/static/chunks/app.js", { "accept-encoding": "br" });
    const head = await get("/_next/static/chunks/app.js", { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(full.headers["content-length"]);
    const etag = String(full.headers.etag);
    expect(etag).toMatch(/^"br-/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const revalidated = await get("/_next/static/chunks/app.js", { "accept-encoding": "br", "if-none-match": ifNoneMatch });
      expect(revalidated.status, ifNoneMatch).toBe(304);
      expect(revalidated.body.length, ifNoneMatch).toBe(0);
      expect(revalidated.headers.etag, ifNoneMatch).toBe(etag);
    }
    const changed = await get("/_next/static/chunks/app.js", { "accept-encoding": "br", "if-none-match": '"other"' });
    expect(changed.status).toBe(200);
  });

  it("leaves to Next what it has no current copy for, or what the client cannot take as one", async () => {
    const cases: Array<[string, string, Record<string, string>, string?]> = [
      ["no brotli", "/_next/static/chunks/app.js", { "accept-encoding": "gzip, deflate" }],
      ["brotli refused", "/_next/static/chunks/app.js", { "accept-encoding": "gzip, br;q=0" }],
      ["no Accept-Encoding", "/_next/static/chunks/app.js", {}],
      ["a Range request", "/_next/static/chunks/app.js", { "accept-encoding": "br", range: "bytes=0-9" }],
      ["a POST", "/_next/static/chunks/app.js", { "accept-encoding": "br" }, "POST"],
      ["a copy older than its file", "/_next/static/chunks/rebuilt.js", { "accept-encoding": "br" }],
      ["no copy", "/_next/static/chunks/missing.js", { "accept-encoding": "br" }],
      ["the copy by its own name", "/_next/static/chunks/app.js.br", { "accept-encoding": "br" }],
      ["a path out of the folder", "/_next/static/../../package.json", { "accept-encoding": "br" }],
      ["an encoded path out of the folder", "/_next/static/chunks/..%2f..%2fapp.js", { "accept-encoding": "br" }],
      ["a page", "/projects", { "accept-encoding": "br" }],
    ];
    for (const [label, path, headers, method] of cases) {
      const answer = await get(path, headers, method);
      expect(answer.headers["x-answered-by"], label).toBe("next");
      expect(answer.headers["content-encoding"], label).toBeUndefined();
    }
  });

  it("serves nothing when the build wrote no copies (a build made with next build alone)", async () => {
    const empty = await mkdtemp(join(tmpdir(), "flowpoint-assets-empty-"));
    await mkdir(join(empty, "chunks"));
    await writeFile(join(empty, "chunks", "app.js"), await readFile(join(dir, "chunks", "app.js")));
    const handle = await createPrecompressedAssetHandler(empty);
    const missing = await createPrecompressedAssetHandler(join(empty, "no-such-folder"));
    const req = { method: "GET", url: "/_next/static/chunks/app.js", headers: { "accept-encoding": "br" } } as unknown as IncomingMessage;
    expect(handle(req, {} as ServerResponse)).toBe(false);
    expect(missing(req, {} as ServerResponse)).toBe(false);
    await rm(empty, { recursive: true, force: true });
  });
});
