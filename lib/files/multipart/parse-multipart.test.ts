import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { multipartBoundary, parseMultipart, type MultipartLimits, type PartPlan } from "./parse-multipart";

const BOUNDARY = "----formdata-test-7d8a";

function streamOf(bytes: Buffer, chunkSize: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + chunkSize)));
      offset += chunkSize;
    },
  });
}

/** A body as a browser's FormData serializes it (through undici, the same code fetch uses). */
async function encodeForm(form: FormData): Promise<{ body: Buffer; boundary: string }> {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  const boundary = multipartBoundary(request.headers.get("content-type") ?? "");
  if (!boundary) throw new Error("no boundary");
  return { body: Buffer.from(await request.arrayBuffer()), boundary };
}

function limits(overrides: Partial<MultipartLimits> = {}): MultipartLimits {
  return {
    planPart: (head): PartPlan => (head.filename === null ? { kind: "text" } : { kind: "file", maxBytes: 1000 }),
    maxTotalBytes: 100_000,
    maxTextBytes: 10_000,
    maxParts: 10,
    maxHeaderBytes: 1024,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("multipartBoundary", () => {
  it("reads token and quoted boundaries and refuses missing or invalid ones", () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${BOUNDARY}`)).toBe(BOUNDARY);
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(multipartBoundary("multipart/form-data")).toBeNull();
    expect(multipartBoundary(`multipart/form-data; boundary=${"x".repeat(71)}`)).toBeNull();
    expect(multipartBoundary('multipart/form-data; boundary="ends with space "')).toBeNull();
  });
});

describe("parseMultipart", () => {
  it("reads text fields and files exactly, however the network splits the body", async () => {
    const form = new FormData();
    form.append("title", "Grüße\r\n--not a boundary");
    form.append("tags", "a");
    form.append("tags", "b");
    const binary = Buffer.from(Array.from({ length: 700 }, (_, index) => (index * 37) % 256));
    // The file holds the delimiter's start and CRLFs, which must not end it early.
    const tricky = Buffer.concat([binary, Buffer.from(`\r\n--${"-".repeat(3)}\r\n`), binary.subarray(0, 100)]);
    form.append("photo", new Blob([tricky], { type: "image/png" }), "ünïcode name.png");
    const { body, boundary } = await encodeForm(form);

    for (const chunkSize of [1, 2, 3, 7, 64, 1000, body.length]) {
      const parts = await parseMultipart(streamOf(body, chunkSize), boundary, limits());
      expect(parts.map((part) => [part.name, part.filename, part.contentType])).toEqual([
        ["title", null, null],
        ["tags", null, null],
        ["tags", null, null],
        ["photo", "ünïcode name.png", "image/png"],
      ]);
      expect(parts[0]!.data.toString("utf8")).toBe("Grüße\r\n--not a boundary");
      expect(parts[2]!.data.toString()).toBe("b");
      expect(parts[3]!.data.equals(tricky)).toBe(true);
    }
  });

  it("accepts a preamble, transport padding, quoted parameters with escapes, filename* and an epilogue", async () => {
    const body = Buffer.from(
      [
        "this preamble is ignored",
        `--${BOUNDARY}   `,
        'Content-Disposition: form-data; name="a\\"b"',
        "",
        "one",
        `--${BOUNDARY}`,
        `Content-Disposition: form-data; name=file; filename="fallback.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
        "Content-Type: text/plain",
        "",
        "two",
        `--${BOUNDARY}--`,
        "epilogue, ignored",
      ].join("\r\n"),
    );
    const parts = await parseMultipart(streamOf(body, 5), BOUNDARY, limits());
    expect(parts.map((part) => [part.name, part.filename, part.data.toString()])).toEqual([
      ['a"b', null, "one"],
      ["file", "résumé.txt", "two"],
    ]);
  });

  it("keeps an empty file input (as browsers send it) as a part with an empty filename and no bytes", async () => {
    const body = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--${BOUNDARY}--\r\n`);
    const [part] = await parseMultipart(streamOf(body, 16), BOUNDARY, limits());
    expect(part).toMatchObject({ name: "photo", filename: "" });
    expect(part!.data.length).toBe(0);
  });

  it("stops a file over its limit while streaming, before reading the rest", async () => {
    const form = new FormData();
    form.append("photo", new Blob([Buffer.alloc(5000, 1)]), "big.bin");
    const { body, boundary } = await encodeForm(form);
    let delivered = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (delivered >= body.length) return controller.close();
        controller.enqueue(new Uint8Array(body.subarray(delivered, delivered + 100)));
        delivered += 100;
      },
      cancel() {
        cancelled = true;
      },
    });
    const error = await rejection(parseMultipart(stream, boundary, limits()));
    expect(error.status).toBe(413);
    expect(error.issues).toEqual([{ path: "photo", message: "must be at most 1000 bytes" }]);
    expect(cancelled).toBe(true);
    expect(delivered).toBeLessThan(1400);
  });

  it("answers 413 for text over the shared budget, too many parts and a body over the total", async () => {
    const form = new FormData();
    form.append("a", "x".repeat(60));
    form.append("b", "y".repeat(60));
    const { body, boundary } = await encodeForm(form);
    expect((await rejection(parseMultipart(streamOf(body, 50), boundary, limits({ maxTextBytes: 100 })))).status).toBe(413);
    expect((await rejection(parseMultipart(streamOf(body, 50), boundary, limits({ maxParts: 1 })))).status).toBe(413);
    expect((await rejection(parseMultipart(streamOf(body, 50), boundary, limits({ maxTotalBytes: body.length - 1 })))).status).toBe(413);
  });

  it("lets the caller refuse a part from its headers, before its content", async () => {
    const form = new FormData();
    form.append("nope", new Blob(["content"]), "x.txt");
    const { body, boundary } = await encodeForm(form);
    const refuse = () => {
      throw new AppError("validation_failed", "not a file field");
    };
    expect((await rejection(parseMultipart(streamOf(body, 8), boundary, limits({ planPart: refuse })))).status).toBe(422);
  });

  it("answers 400 for malformed bodies", async () => {
    const cases = [
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nno closing boundary`,
      `--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nno disposition\r\n--${BOUNDARY}--`,
      `--${BOUNDARY}\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--${BOUNDARY}--`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--${BOUNDARY}--`,
      `--${BOUNDARY}\r\nno colon here\r\n\r\nx\r\n--${BOUNDARY}--`,
      `--${BOUNDARY}junk\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--${BOUNDARY}--`,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"; x="${"y".repeat(2000)}"\r\n\r\nx\r\n--${BOUNDARY}--`,
      "",
    ];
    for (const text of cases) {
      const error = await rejection(parseMultipart(streamOf(Buffer.from(text), 13), BOUNDARY, limits()));
      expect(error.status, text.slice(0, 80)).toBe(400);
    }
    expect((await rejection(parseMultipart(null, BOUNDARY, limits()))).status).toBe(400);
  });
});
