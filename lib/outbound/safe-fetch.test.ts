import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type http from "node:http";
import https from "node:https";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { type HostLookup, type ResolvedAddress } from "./assert-public-destination";
import { type LocalTestServer, startLocalTestServer } from "./local-test-server";
import { type ConnectTarget } from "./pinned-connector";
import { OUTBOUND_MAX_BYTES, safeFetch } from "./safe-fetch";
import { PUBLIC_ADDRESS, rebindingLookup } from "./testing/rebinding-lookup";

const CAP = OUTBOUND_MAX_BYTES;
const ZEROS = Buffer.alloc(64 * 1024);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

function allowHosts(value: string | undefined): void {
  if (value === undefined) delete process.env.OUTBOUND_ALLOWED_HOSTS;
  else process.env.OUTBOUND_ALLOWED_HOSTS = value;
  resetConfigForTests();
}

/** Writes `chunk` forever, respecting backpressure, until the client goes away. */
function writeForever(target: NodeJS.WritableStream & { destroyed?: boolean }, chunk: Buffer, onClose: (listener: () => void) => void): void {
  let closed = false;
  onClose(() => {
    closed = true;
  });
  const pump = () => {
    while (!closed && !target.destroyed) {
      if (!target.write(chunk)) {
        target.once("drain", pump);
        return;
      }
    }
  };
  pump();
}

interface Recorder {
  closedEarly: boolean;
  compressedBytesWritten: number;
}

const recorder: Recorder = { closedEarly: false, compressedBytesWritten: 0 };
let finiteGzipBomb: Buffer;

const routes: Record<string, http.RequestListener> = {
  "/json": (_request, response) => {
    response.setHeader("content-type", "application/json; charset=utf-8");
    response.end(JSON.stringify({ tickets: [{ id: 1, title: "Printer on fire" }], total: 1 }));
  },
  "/problem-json": (_request, response) => {
    response.statusCode = 404;
    response.setHeader("content-type", "application/problem+json");
    response.end('{"title":"not here"}');
  },
  "/broken-json": (_request, response) => {
    response.setHeader("content-type", "application/json");
    response.end("{not json");
  },
  "/text": (_request, response) => {
    response.setHeader("content-type", "text/plain");
    response.end("plain words");
  },
  "/latin1": (_request, response) => {
    response.setHeader("content-type", "text/plain; charset=iso-8859-1");
    response.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  },
  "/server-error": (_request, response) => {
    response.statusCode = 500;
    response.setHeader("set-cookie", ["a=1", "b=2"]);
    response.end("boom");
  },
  "/redirect": (_request, response) => {
    response.statusCode = 302;
    response.setHeader("location", "/json");
    response.end("moved");
  },
  "/redirect-to-metadata": (_request, response) => {
    response.statusCode = 307;
    response.setHeader("location", "http://169.254.169.254/latest/meta-data/");
    response.end();
  },
  "/hang": () => undefined,
  "/slow-body": (_request, response) => {
    response.setHeader("content-type", "text/plain");
    response.write("first part ");
  },
  "/endless": (request, response) => {
    response.setHeader("content-type", "text/plain");
    response.on("close", () => {
      recorder.closedEarly = !response.writableFinished;
    });
    writeForever(response, Buffer.alloc(16 * 1024, "a"), (listener) => request.socket.once("close", listener));
  },
  "/exactly-cap": (_request, response) => {
    response.end(Buffer.alloc(CAP, "b"));
  },
  "/gzip-bomb": (request, response) => {
    // An endless gzip stream of zeros: about 1000:1, so a client without a cap after decompression never finishes.
    response.setHeader("content-type", "application/json");
    response.setHeader("content-encoding", "gzip");
    const gzip = zlib.createGzip({ level: 9 });
    gzip.on("data", (chunk: Buffer) => {
      recorder.compressedBytesWritten += chunk.length;
    });
    gzip.pipe(response);
    response.on("close", () => {
      recorder.closedEarly = true;
      gzip.destroy();
    });
    writeForever(gzip, ZEROS, (listener) => request.socket.once("close", listener));
  },
  "/gzip-bomb-finite": (_request, response) => {
    response.setHeader("content-encoding", "gzip");
    response.setHeader("content-length", finiteGzipBomb.length);
    response.end(finiteGzipBomb);
  },
  "/brotli-bomb": (request, response) => {
    response.setHeader("content-encoding", "br");
    const brotli = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
    brotli.pipe(response);
    response.on("close", () => brotli.destroy());
    writeForever(brotli, ZEROS, (listener) => request.socket.once("close", listener));
  },
  "/gzip-small": (_request, response) => {
    response.setHeader("content-type", "application/json");
    response.setHeader("content-encoding", "gzip");
    response.end(zlib.gzipSync('{"zipped":true}'));
  },
  "/deflate-zlib": (_request, response) => {
    response.setHeader("content-encoding", "deflate");
    response.end(zlib.deflateSync("zlib-wrapped deflate"));
  },
  "/deflate-raw": (_request, response) => {
    response.setHeader("content-encoding", "deflate");
    response.end(zlib.deflateRawSync("raw deflate"));
  },
  "/brotli-small": (_request, response) => {
    response.setHeader("content-encoding", "br");
    response.end(zlib.brotliCompressSync("brotli text"));
  },
  "/double-encoded": (_request, response) => {
    response.setHeader("content-encoding", "deflate, gzip");
    response.end(zlib.gzipSync(zlib.deflateSync("twice")));
  },
  "/corrupt-gzip": (_request, response) => {
    response.setHeader("content-encoding", "gzip");
    response.end(Buffer.from("this is not gzip at all, not even close"));
  },
  "/corrupt-brotli": (_request, response) => {
    response.setHeader("content-encoding", "br");
    response.end(Buffer.from("garbage garbage garbage"));
  },
  "/cut-gzip": (request, response) => {
    // Headers and half a gzip stream, then the connection drops: a connection failure, not bad data.
    response.setHeader("content-encoding", "gzip");
    response.flushHeaders();
    response.write(zlib.gzipSync(Buffer.alloc(100_000, "z")).subarray(0, 40), () => request.socket.destroy());
  },
  "/zstd": (_request, response) => {
    response.setHeader("content-encoding", "zstd");
    response.end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
  },
  "/empty-gzip": (_request, response) => {
    response.statusCode = 204;
    response.setHeader("content-encoding", "gzip");
    response.end();
  },
  "/echo": (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          method: request.method,
          url: request.url,
          host: request.headers.host,
          custom: request.headers["x-custom"],
          userAgent: request.headers["user-agent"],
          acceptEncoding: request.headers["accept-encoding"],
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
  },
};

let server: LocalTestServer;
let otherServer: LocalTestServer;

beforeAll(async () => {
  // 128 MB of zeros gzipped to ~130 KB, built in 1 MB steps so the test process never holds 128 MB itself.
  const gzip = zlib.createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve) => gzip.on("end", resolve));
  const megabyte = Buffer.alloc(1024 * 1024);
  for (let index = 0; index < 128; index += 1) gzip.write(megabyte);
  gzip.end();
  await done;
  finiteGzipBomb = Buffer.concat(parts);

  server = await startLocalTestServer((request, response) => {
    const route = routes[new URL(request.url ?? "/", "http://x").pathname];
    if (route) route(request, response);
    else response.end("ok");
  });
  otherServer = await startLocalTestServer();
});

afterAll(async () => {
  allowHosts(undefined);
  await server.close();
  await otherServer.close();
});

beforeEach(() => {
  allowHosts(`127.0.0.1:${server.port}`);
  recorder.closedEarly = false;
  recorder.compressedBytesWritten = 0;
});

const base = () => `http://127.0.0.1:${server.port}`;

describe("safeFetch through OUTBOUND_ALLOWED_HOSTS: replies", () => {
  it("parses a JSON reply and reports headers in lowercase", async () => {
    const result = await safeFetch(`${base()}/json`);
    expect(result).toMatchObject({ status: 200, ok: true, truncated: false, body: { tickets: [{ id: 1, title: "Printer on fire" }], total: 1 } });
    expect(result.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("returns a non-2xx answer as data (+json parsed), not as an error", async () => {
    const problem = await safeFetch(`${base()}/problem-json`);
    expect(problem).toMatchObject({ status: 404, ok: false, body: { title: "not here" }, truncated: false });
    const serverError = await safeFetch(`${base()}/server-error`);
    expect(serverError).toMatchObject({ status: 500, ok: false, body: "boom" });
    expect(serverError.headers["set-cookie"]).toBe("a=1, b=2");
  });

  it("keeps text and unparseable JSON as text, decoding the declared charset", async () => {
    expect((await safeFetch(`${base()}/text`)).body).toBe("plain words");
    expect((await safeFetch(`${base()}/broken-json`)).body).toBe("{not json");
    expect((await safeFetch(`${base()}/latin1`)).body).toBe("café");
  });

  it("returns a 3xx as the result, with its location, and never follows it", async () => {
    const before = server.requests.length;
    const result = await safeFetch(`${base()}/redirect`);
    expect(result).toMatchObject({ status: 302, ok: false, body: "moved", truncated: false });
    expect(result.headers.location).toBe("/json");
    expect(server.requests.slice(before).map((request) => request.url)).toEqual(["/redirect"]);
  });

  it("does not follow a redirect to the metadata address either", async () => {
    const result = await safeFetch(`${base()}/redirect-to-metadata`);
    expect(result.status).toBe(307);
    expect(result.headers.location).toBe("http://169.254.169.254/latest/meta-data/");
  });

  it("sends the method, headers and body, with Host from the URL and default user-agent and accept-encoding", async () => {
    const result = await safeFetch(`${base()}/echo?x=1#fragment`, {
      method: "post",
      headers: { "X-Custom": "value", "content-type": "application/json" },
      body: '{"hello":"world"}',
    });
    expect(result.body).toEqual({
      method: "POST",
      url: "/echo?x=1",
      host: `127.0.0.1:${server.port}`,
      custom: "value",
      userAgent: "flowpoint-outbound/1",
      acceptEncoding: "gzip, deflate, br",
      body: '{"hello":"world"}',
    });
  });

  it("lets the caller set user-agent and accept-encoding", async () => {
    const result = await safeFetch(`${base()}/echo`, { headers: { "User-Agent": "mine", "Accept-Encoding": "identity" } });
    expect(result.body).toMatchObject({ userAgent: "mine", acceptEncoding: "identity" });
  });

  it("answers HEAD with an empty body", async () => {
    const result = await safeFetch(`${base()}/json`, { method: "HEAD" });
    expect(result).toMatchObject({ status: 200, body: "", truncated: false });
  });
});

describe("safeFetch: the allow-list is exact", () => {
  it("keeps another port on 127.0.0.1 blocked, and it never sees a connection", async () => {
    const error = await failure(safeFetch(`http://127.0.0.1:${otherServer.port}/`));
    expect(error.code).toBe("validation_failed");
    expect(error.message).toBe("outbound request refused: 127.0.0.1 is a loopback address");
    expect(otherServer.connections()).toBe(0);
  });

  it("does not extend to another name for the same address", async () => {
    const error = await failure(safeFetch(`http://localhost:${server.port}/json`));
    expect(error.code).toBe("validation_failed");
    const viaLookup = await failure(safeFetch(`http://alias.test:${server.port}/json`, { lookup: async () => [{ address: "127.0.0.1", family: 4 }] }));
    expect(viaLookup.message).toBe("outbound request refused: alias.test resolves to a loopback address");
  });

  it("an entry without a port allows every port of that host", async () => {
    allowHosts("127.0.0.1");
    expect((await safeFetch(`http://127.0.0.1:${otherServer.port}/`)).body).toBe("ok");
    expect(otherServer.connections()).toBe(1);
  });

  it("an unset allow-list lets nothing private through", async () => {
    allowHosts(undefined);
    const before = server.connections();
    expect((await failure(safeFetch(`${base()}/json`))).code).toBe("validation_failed");
    expect(server.connections()).toBe(before);
  });
});

describe("safeFetch: limits", () => {
  it("times out a server that never answers", async () => {
    const error = await failure(safeFetch(`${base()}/hang`, { timeoutMs: 200 }));
    expect(error.code).toBe("timeout");
    expect(error.message).toBe("outbound request to 127.0.0.1 timed out after 200 ms");
  });

  it("times out a body that never ends", async () => {
    const error = await failure(safeFetch(`${base()}/slow-body`, { timeoutMs: 200 }));
    expect(error.code).toBe("timeout");
  });

  it("ends with a timeout error when the caller aborts", async () => {
    const controller = new AbortController();
    const pending = safeFetch(`${base()}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await failure(pending);
    expect(error.code).toBe("timeout");
    expect(error.message).toBe("outbound request to 127.0.0.1 was aborted");
    const already = await failure(safeFetch(`${base()}/json`, { signal: AbortSignal.abort() }));
    expect(already.code).toBe("timeout");
  });

  it("stops reading an endless body at 256 KB, marks it truncated and closes the connection", async () => {
    const result = await safeFetch(`${base()}/endless`);
    expect(result.truncated).toBe(true);
    expect(result.status).toBe(200);
    expect(result.body).toBe("a".repeat(CAP));
    await expect.poll(() => recorder.closedEarly).toBe(true);
  });

  it("honours a smaller maxBytes, and a JSON reply cut short stays text", async () => {
    const result = await safeFetch(`${base()}/json`, { maxBytes: 10 });
    expect(result).toMatchObject({ truncated: true, body: '{"tickets"' });
  });

  it("does not mark a body of exactly the cap as truncated", async () => {
    const result = await safeFetch(`${base()}/exactly-cap`);
    expect(result.truncated).toBe(false);
    expect((result.body as string).length).toBe(CAP);
  });
});

describe("safeFetch: decompression with the cap applied after it", () => {
  it("decodes gzip, zlib and raw deflate, brotli and stacked encodings", async () => {
    expect((await safeFetch(`${base()}/gzip-small`)).body).toEqual({ zipped: true });
    expect((await safeFetch(`${base()}/deflate-zlib`)).body).toBe("zlib-wrapped deflate");
    expect((await safeFetch(`${base()}/deflate-raw`)).body).toBe("raw deflate");
    expect((await safeFetch(`${base()}/brotli-small`)).body).toBe("brotli text");
    expect((await safeFetch(`${base()}/double-encoded`)).body).toBe("twice");
    expect(await safeFetch(`${base()}/empty-gzip`)).toMatchObject({ status: 204, body: "", truncated: false });
  });

  function memoryInUse(): number {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  }

  async function withPeakMemory<T>(run: () => Promise<T>): Promise<{ result: T; growth: number }> {
    const start = memoryInUse();
    let peak = start;
    const sampler = setInterval(() => {
      peak = Math.max(peak, memoryInUse());
    }, 2);
    try {
      const result = await run();
      peak = Math.max(peak, memoryInUse());
      return { result, growth: peak - start };
    } finally {
      clearInterval(sampler);
    }
  }

  it("cuts an endless gzip bomb at 256 KB of decompressed output, with memory staying bounded", async () => {
    const { result, growth } = await withPeakMemory(() => safeFetch(`${base()}/gzip-bomb`));
    expect(result.truncated).toBe(true);
    expect(result.body).toBe("\0".repeat(CAP));
    // Never parsed as JSON when truncated, whatever the content type says.
    expect(typeof result.body).toBe("string");
    expect(growth).toBeLessThan(48 * 1024 * 1024);
    await expect.poll(() => recorder.closedEarly).toBe(true);
    // The client stopped pulling: the server compressed only a sliver of what an unbounded reader would take.
    expect(recorder.compressedBytesWritten).toBeLessThan(16 * 1024 * 1024);
  });

  it("cuts a 128 MB gzip bomb (130 KB on the wire) at 256 KB without inflating the rest", async () => {
    const { result, growth } = await withPeakMemory(() => safeFetch(`${base()}/gzip-bomb-finite`));
    expect(result.truncated).toBe(true);
    expect((result.body as string).length).toBe(CAP);
    expect(growth).toBeLessThan(48 * 1024 * 1024);
  });

  it("cuts an endless brotli bomb too", async () => {
    const result = await safeFetch(`${base()}/brotli-bomb`);
    expect(result.truncated).toBe(true);
    expect((result.body as string).length).toBe(CAP);
  });

  it("reports a corrupt or unsupported encoding as unavailable", async () => {
    const corrupt = await failure(safeFetch(`${base()}/corrupt-gzip`));
    expect(corrupt.code).toBe("unavailable");
    expect(corrupt.message).toBe("outbound response could not be decompressed (invalid gzip data)");
    const corruptBrotli = await failure(safeFetch(`${base()}/corrupt-brotli`));
    expect(corruptBrotli).toMatchObject({ code: "unavailable", message: "outbound response could not be decompressed (invalid br data)" });
    const zstd = await failure(safeFetch(`${base()}/zstd`));
    expect(zstd.code).toBe("unavailable");
    expect(zstd.message).toBe("outbound response uses an unsupported content encoding (zstd)");
  });
});

describe("safeFetch: request validation happens before any connection", () => {
  it.each([
    [{ "x-evil": "a\r\nInjected: yes" }, /header "x-evil" contains a line break/],
    [{ "x-evil": "a\nb" }, /line break/],
    [{ "x-evil": "a\rb" }, /line break/],
    [{ "bad name": "x" }, /header name "bad name" is not valid/],
    [{ "x-evil\r\nInjected": "x" }, /is not valid/],
    [{ host: "169.254.169.254" }, /header "host" is set by the client/],
    [{ "Transfer-Encoding": "chunked" }, /header "Transfer-Encoding" is set by the client/],
    [{ "content-length": "5" }, /set by the client/],
    [{ connection: "upgrade" }, /set by the client/],
  ])("refuses headers %j", async (headers, message) => {
    const before = server.connections();
    const error = await failure(safeFetch(`${base()}/echo`, { headers }));
    expect(error.code).toBe("validation_failed");
    expect(error.message).toMatch(message);
    expect(server.connections()).toBe(before);
  });

  it.each(["TRACE", "CONNECT", "GET /x HTTP/1.1", "PROPFIND"])("refuses the method %j", async (method) => {
    const error = await failure(safeFetch(`${base()}/echo`, { method }));
    expect(error.code).toBe("validation_failed");
    expect(error.message).toMatch(/^outbound request refused: method .* is not allowed$/);
  });
});

describe("safeFetch: connection errors", () => {
  it("reports a refused connection as unavailable, naming only the host", async () => {
    const closed = await startLocalTestServer();
    const port = closed.port;
    await closed.close();
    allowHosts(`127.0.0.1:${port}`);
    const error = await failure(safeFetch(`http://127.0.0.1:${port}/`));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("outbound request to 127.0.0.1 failed: connection refused");
  });

  it("reports a connection dropped in the middle of a compressed body as a connection failure", async () => {
    const error = await failure(safeFetch(`${base()}/cut-gzip`));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("outbound request to 127.0.0.1 failed: the response was cut off or is not valid HTTP");
  });

  it("reports a name that does not resolve as unavailable", async () => {
    const notFound: HostLookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    };
    const error = await failure(safeFetch("http://nowhere.invalid/", { lookup: notFound }));
    expect(error).toMatchObject({ code: "unavailable", message: "outbound request to nowhere.invalid failed: host not found" });
  });
});

describe("safeFetch: DNS rebinding (injected resolver)", () => {
  const PUBLIC = PUBLIC_ADDRESS;

  const loopback: ResolvedAddress[] = [{ address: "127.0.0.1", family: 4 }];

  it("public first, loopback after: resolves once and dials only the checked public address (vetoed, never contacted)", async () => {
    const lookup = rebindingLookup([{ address: PUBLIC, family: 4 }], loopback);
    const dialled: ConnectTarget[] = [];
    const before = server.connections();
    const error = await failure(
      safeFetch(`http://rebind.test:${server.port}/json`, {
        lookup,
        beforeConnect: (target) => {
          dialled.push(target);
          throw new Error("test veto: never contact a public address");
        },
      }),
    );
    expect(error.code).toBe("unavailable");
    expect(lookup.calls()).toBe(1);
    expect(dialled).toEqual([{ address: PUBLIC, family: 4, port: server.port, servername: undefined }]);
    expect(server.connections()).toBe(before);
  });

  it("loopback first: refused before any connection attempt", async () => {
    const lookup = rebindingLookup(loopback, [{ address: PUBLIC, family: 4 }]);
    const dialled: ConnectTarget[] = [];
    const before = server.connections();
    const error = await failure(safeFetch(`http://rebind.test:${server.port}/json`, { lookup, beforeConnect: (target) => dialled.push(target) }));
    expect(error.code).toBe("validation_failed");
    expect(dialled).toEqual([]);
    expect(server.connections()).toBe(before);
  });

  it("a mixed answer (public + loopback) is refused as a whole", async () => {
    const lookup = rebindingLookup([{ address: PUBLIC, family: 4 }, ...loopback], loopback);
    const dialled: ConnectTarget[] = [];
    const error = await failure(safeFetch(`http://rebind.test:${server.port}/json`, { lookup, beforeConnect: (target) => dialled.push(target) }));
    expect(error.message).toBe("outbound request refused: rebind.test resolves to a loopback address");
    expect(dialled).toEqual([]);
  });

  it("connects to the address it checked, keeping the name as Host (allow-listed name, changing answers)", async () => {
    allowHosts(`service.test:${server.port}`);
    const lookup = rebindingLookup(loopback, [{ address: "10.9.9.9", family: 4 }]);
    const dialled: ConnectTarget[] = [];
    const result = await safeFetch(`http://service.test:${server.port}/echo`, { lookup, beforeConnect: (target) => dialled.push(target) });
    expect(result.body).toMatchObject({ host: `service.test:${server.port}` });
    expect(lookup.calls()).toBe(1);
    expect(dialled.map((target) => target.address)).toEqual(["127.0.0.1"]);
  });

  it("falls back to the next checked address when the first refuses the connection", async () => {
    allowHosts(`service.test:${server.port}`);
    // 127.0.0.2 is loopback too, but nothing listens there on this port.
    const lookup = rebindingLookup(
      [
        { address: "127.0.0.2", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ],
      [],
    );
    const dialled: ConnectTarget[] = [];
    const result = await safeFetch(`http://service.test:${server.port}/json`, { lookup, beforeConnect: (target) => dialled.push(target) });
    expect(result.status).toBe(200);
    expect(dialled.map((target) => target.address)).toEqual(["127.0.0.2", "127.0.0.1"]);
  });
});

function opensslAvailable(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe.runIf(opensslAvailable())("safeFetch over TLS (self-signed certificate made with openssl)", () => {
  let directory: string;
  let tlsServer: https.Server;
  let tlsPort = 0;
  const serverNames: string[] = [];
  let handshakes = 0;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), "outbound-tls-"));
    const key = path.join(directory, "key.pem");
    const cert = path.join(directory, "cert.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=secure.test"], { stdio: "ignore" });
    const context = tls.createSecureContext({ key: readFileSync(key), cert: readFileSync(cert) });
    tlsServer = https.createServer(
      {
        key: readFileSync(key),
        cert: readFileSync(cert),
        // Runs only when the client sends SNI: it records the name the client asked for.
        SNICallback: (servername, callback) => {
          serverNames.push(servername);
          callback(null, context);
        },
      },
      (_request, response) => response.end("secret"),
    );
    tlsServer.on("secureConnection", () => {
      handshakes += 1;
    });
    tlsServer.on("tlsClientError", () => undefined);
    await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
    tlsPort = (tlsServer.address() as AddressInfo).port;
  });

  afterAll(async () => {
    tlsServer.closeAllConnections();
    await new Promise((resolve) => tlsServer.close(resolve));
    rmSync(directory, { recursive: true, force: true });
  });

  it("dials the checked IP but presents the URL's name as SNI, and refuses an untrusted certificate", async () => {
    allowHosts(`secure.test:${tlsPort}`);
    const dialled: ConnectTarget[] = [];
    const error = await failure(
      safeFetch(`https://secure.test:${tlsPort}/`, {
        lookup: async () => [{ address: "127.0.0.1", family: 4 }],
        beforeConnect: (target) => dialled.push(target),
      }),
    );
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("outbound request to secure.test failed: the TLS certificate was not accepted (untrusted, expired or for another host)");
    expect(dialled).toEqual([{ address: "127.0.0.1", family: 4, port: tlsPort, servername: "secure.test" }]);
    expect(serverNames).toEqual(["secure.test"]);
    expect(handshakes).toBe(0);
  });
});

afterEach(() => {
  allowHosts(`127.0.0.1:${server.port}`);
});
