import { request as httpRequest } from "node:http";
import { describe, expect } from "vitest";
import { FILE_LIMITS } from "@/lib/files/file-limits";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { answerOf, type ApiBody, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

const it = routeTest
  /** A key for schemas and records (the raw HTTP requests send it themselves). */
  .extend("key", { scope: "file" }, ({ project }) => project.keyFor(["schemas.write", "records.read", "records.create", "records.update", "records.delete"]))
  /** The client calling with `key`, on a project with `people`, `docs` and the `pages` with nested file fields. */
  .extend("api", { scope: "file" }, async ({ ownerApi, key }) => {
    const api = ownerApi.with({ credentials: { key } });
    for (const definition of [
      { name: "people", kind: "collection", fields: [{ name: "name", type: "string" }] },
      {
        name: "place",
        kind: "component",
        fields: [
          { name: "street", type: "string" },
          { name: "photo", type: "file", accept: ["image/*"], maxBytes: 1000 },
        ],
      },
      { name: "hero", kind: "component", fields: [{ name: "image", type: "file" }] },
      { name: "quote", kind: "component", fields: [{ name: "text", type: "text" }] },
      {
        name: "pages",
        kind: "collection",
        fields: [
          { name: "title", type: "string", required: true },
          { name: "address", type: "component", component: "place" },
          { name: "gallery", type: "component", component: "place", repeatable: true, max: 5 },
          { name: "blocks", type: "dynamic_zone", components: ["hero", "quote"] },
        ],
      },
      {
        name: "docs",
        kind: "collection",
        fields: [
          { name: "title", type: "string", required: true },
          { name: "slug", type: "string", unique: true },
          { name: "author", type: "relation", target: "people" },
          { name: "attachment", type: "file" },
          { name: "cover", type: "file", accept: ["image/*"], maxBytes: 100_000 },
        ],
      },
    ]) {
      expect((await api.call("POST", "/schemas", definition)).status).toBe(201);
    }
    return api;
  });

function form(entries: Record<string, string | [Blob, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) {
    if (typeof value === "string") data.append(name, value);
    else data.append(name, value[0], value[1]);
  }
  return data;
}

async function stored(api: ProjectApi): Promise<{ files: number; chunks: number }> {
  const store = await getProjectRecordStore({ projectId: api.projectId });
  return { files: await store.count("_files"), chunks: await store.count("_file_chunks") };
}

describe("upload limits", () => {
  it("answers 413 naming the field for a file over the platform limit or the field's maxBytes, storing nothing", async ({ api }) => {
    const before = await stored(api);
    const overPlatform = await api.send("POST", "/records/docs", form({ title: "Too big", attachment: [new Blob([Buffer.alloc(FILE_LIMITS.maxFileBytes + 1)]), "big.bin"] }));
    expect(overPlatform.status).toBe(413);
    expect(overPlatform.body).toEqual({
      error: `file "attachment" is larger than ${FILE_LIMITS.maxFileBytes} bytes`,
      code: "payload_too_large",
      issues: [{ path: "attachment", message: `must be at most ${FILE_LIMITS.maxFileBytes} bytes` }],
    });
    const exactly = await api.send("POST", "/records/docs", form({ title: "Just fits", attachment: [new Blob([Buffer.alloc(FILE_LIMITS.maxFileBytes)]), "fits.bin"] }));
    expect(exactly.status).toBe(201);
    await api.call("DELETE", `/records/docs/${exactly.body.id as string}`);

    const overField = await api.send("POST", "/records/docs", form({ title: "Big cover", cover: [new Blob([Buffer.alloc(100_001)], { type: "image/png" }), "c.png"] }));
    expect(overField.status).toBe(413);
    expect(overField.body.issues).toEqual([{ path: "cover", message: "must be at most 100000 bytes" }]);
    expect(await stored(api)).toEqual(before);
  });

  it("answers 413 from the declared length before reading, and while streaming a body without one", async ({ key, api }) => {
    // Only the headers are sent: the answer must come from the declared length alone.
    const declared = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(api.url("/records/docs"), {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "multipart/form-data; boundary=x", "content-length": String(50 * 1024 * 1024) },
      });
      request.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => {
          resolve({ status: response.statusCode ?? 0, body: text });
          request.destroy();
        });
      });
      request.on("error", reject);
      request.flushHeaders();
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ error: expect.stringMatching(/^request body is larger than \d+ bytes$/), code: "payload_too_large" });

    const boundary = "----streamed";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nstreamed\r\n--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="endless.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    // The body offers three times the file limit, then stays open without ending: a server that
    // reads to the end before answering never answers while it is held. Counting bytes sent instead
    // raced the client's buffers against the answer on a busy machine.
    const offered = 3 * FILE_LIMITS.maxFileBytes;
    let sent = 0;
    let releaseBody!: () => void;
    const answered = new Promise<void>((resolve) => (releaseBody = resolve));
    let bodyEnded = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(head));
      },
      async pull(controller) {
        if (sent >= offered) {
          await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, 15_000))]);
          bodyEnded = true;
          return controller.close();
        }
        const chunk = new Uint8Array(64 * 1024);
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const before = await stored(api);
    const streamed = await api
      .fetch("/records/docs", {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: "half",
      } as RequestInit)
      .catch((error: unknown) => error);
    const answeredWhileHeld = !bodyEnded;
    releaseBody();
    expect(streamed).toBeInstanceOf(Response);
    expect((streamed as Response).status).toBe(413);
    expect(((await (streamed as Response).json()) as ApiBody).error).toBe(`file "attachment" is larger than ${FILE_LIMITS.maxFileBytes} bytes`);
    // The server answered from the limit, before the body ended.
    expect(answeredWhileHeld).toBe(true);
    expect(await stored(api)).toEqual(before);
  });
});

describe("refused parts", () => {
  it("answers 422 for a file the field does not accept, by content type or extension", async ({ api }) => {
    const wrongType = await api.send("POST", "/records/docs", form({ title: "PDF cover", cover: [new Blob(["%PDF"], { type: "application/pdf" }), "cover.pdf"] }));
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.issues).toEqual([{ path: "cover", message: 'must be one of the accepted types image/* (got application/pdf, "cover.pdf")' }]);
    const disguised = await api.send("POST", "/records/docs", form({ title: "HTML cover", cover: [new Blob(["<script>"], { type: "text/html" }), "cover.png"] }));
    expect(disguised.status).toBe(422);
    const untyped = await api.send("POST", "/records/docs", form({ title: "Untyped", cover: [new Blob(["?"]), "cover.png"] }));
    expect(untyped.status).toBe(422);
  });

  it("answers 422 for files sent for fields that are not file fields, twice, or beside a value", async ({ api }) => {
    const notAFileField = await api.send("POST", "/records/docs", form({ title: "x", photo: [new Blob(["x"]), "p.png"] }));
    expect(notAFileField.status).toBe(422);
    expect(notAFileField.body.issues).toEqual([{ path: "photo", message: "is not a file field of docs" }]);
    const textAsFile = await api.send("POST", "/records/docs", form({ title: [new Blob(["x"]), "t.txt"] }));
    expect(textAsFile.body.issues).toEqual([{ path: "title", message: "is not a file field of docs" }]);

    const twice = new FormData();
    twice.append("title", "twice");
    twice.append("attachment", new Blob(["1"]), "1.txt");
    twice.append("attachment", new Blob(["2"]), "2.txt");
    const sentTwice = await api.send("POST", "/records/docs", twice);
    expect(sentTwice.status).toBe(422);
    expect(sentTwice.body.issues).toEqual([{ path: "attachment", message: "takes one file" }]);

    const withValue = new FormData();
    withValue.append("data", new Blob([JSON.stringify({ title: "v", attachment: "fil_x" })], { type: "application/json" }));
    withValue.append("attachment", new Blob(["1"]), "1.txt");
    const valueAndFile = await api.send("POST", "/records/docs", withValue);
    expect(valueAndFile.status).toBe(422);
    expect(valueAndFile.body.issues).toEqual([{ path: "attachment", message: "is given twice (as a file and as a value)" }]);
  });

  it("answers 422 for a part whose content type is not a media type", async ({ api }) => {
    const boundary = "b0undary";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="a.bin"\r\nContent-Type: not a type\r\n\r\nabc\r\n--${boundary}--\r\n`;
    const answer = await answerOf(await api.fetch("/records/docs", { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body }));
    expect(answer.status).toBe(422);
    expect(answer.body.issues).toEqual([{ path: "attachment", message: "has a content type that is not a valid media type" }]);
  });
});

describe("nothing is left behind when the record write fails", () => {
  it("stores no file when the values are invalid", async ({ api }) => {
    const before = await stored(api);
    const invalid = await api.send("POST", "/records/docs", form({ slug: "no title", attachment: [new Blob(["x"]), "x.txt"] }));
    expect(invalid.status).toBe(422);
    expect(invalid.body.issues).toEqual([{ path: "title", message: "is required" }]);
    expect(await stored(api)).toEqual(before);
  });

  it("deletes the stored files again on a taken unique value, a missing related record or a missing record", async ({ api }) => {
    const taken = await api.call("POST", "/records/docs", { title: "Holder", slug: "taken" });
    const before = await stored(api);
    const big = new Blob([Buffer.alloc(FILE_LIMITS.chunkBytes * 2 + 5, 7)]);

    const unique = await api.send(
      "POST",
      "/records/docs",
      form({ title: "Dup", slug: "taken", attachment: [big, "big.bin"], cover: [new Blob(["gif"], { type: "image/gif" }), "c.gif"] }),
    );
    expect(unique.status).toBe(409);
    expect(unique.body.field).toBe("slug");
    expect(await stored(api)).toEqual(before);

    const relation = await api.send("POST", "/records/docs", form({ title: "Orphan", author: "rec_nobody", attachment: [big, "big.bin"] }));
    expect(relation.status).toBe(422);
    expect(relation.body.issues).toEqual([{ path: "author", message: 'no people record has the id "rec_nobody"' }]);
    expect(await stored(api)).toEqual(before);

    const missing = await api.send("PATCH", "/records/docs/rec_missing", form({ attachment: [big, "big.bin"] }));
    expect(missing.status).toBe(404);
    expect(await stored(api)).toEqual(before);

    const updateUnique = await api.send(
      "PATCH",
      `/records/docs/${(await api.call("POST", "/records/docs", { title: "Other" })).body.id as string}`,
      form({ slug: "taken", attachment: [big, "big.bin"] }),
    );
    expect(updateUnique.status).toBe(409);
    expect(await stored(api)).toEqual(before);
    expect((await api.call("GET", `/records/docs/${taken.body.id as string}`)).body.attachment).toBeNull();
  });
});

describe("file ids given as values", () => {
  it("answers 422 for ids that name no stored file or a file of another field", async ({ api }) => {
    const unknown = await api.call("POST", "/records/docs", { title: "Ref", attachment: "fil_doesnotexist" });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ field: "attachment", issues: [{ path: "attachment", message: 'no file has the id "fil_doesnotexist"' }] });

    const withCover = await api.send("POST", "/records/docs", form({ title: "Has cover", cover: [new Blob(["png"], { type: "image/png" }), "c.png"] }));
    const crossField = await api.call("POST", "/records/docs", { title: "Steal", attachment: withCover.body.cover });
    expect(crossField.status).toBe(422);
    expect(crossField.body.issues).toEqual([
      { path: "attachment", message: `file "${withCover.body.cover as string}" was uploaded for another field; upload it again for this one` },
    ]);
    const patched = await api.call("PATCH", `/records/docs/${withCover.body.id as string}`, { attachment: withCover.body.cover });
    expect(patched.status).toBe(422);
  });

  it("answers 404 for files that do not exist or cannot exist", async ({ api }) => {
    for (const id of ["fil_doesnotexist", "a.b", "%24ne", "x".repeat(200)]) {
      const answer = await answerOf(await api.fetch(`/files/${id}`));
      expect(answer.status, id).toBe(404);
      expect(answer.body).toEqual({ error: "file not found", code: "not_found" });
    }
  });
});

describe("files inside components and dynamic zones", () => {
  const values = { title: "Page", address: { street: "Main" }, gallery: [{ street: "g" }], blocks: [{ __component: "quote", text: "q" }, { __component: "hero" }] };
  const nested = (parts: Record<string, Blob>, data: Record<string, unknown> = values) => {
    const body = new FormData();
    body.append("data", new Blob([JSON.stringify(data)], { type: "application/json" }));
    for (const [name, blob] of Object.entries(parts)) body.append(name, blob, "f.png");
    return body;
  };
  const png = () => new Blob(["png"], { type: "image/png" });

  it("answers 422 at the path for paths that name no file field of an item sent, storing nothing", async ({ api }) => {
    const before = await stored(api);
    const cases: [string, string][] = [
      ["address.street", "is not a file field (address.street is a string field)"],
      ["address.nope", 'is not a file field: component place has no field "nope"'],
      ["title.photo", "is not a file field (title is a string field, not a component or dynamic zone)"],
      ["blocks.5.image", "has no item to hold it: blocks holds 2 items in the values sent"],
      ["gallery.1.photo", "has no item to hold it: gallery holds 1 items in the values sent"],
      ["blocks.0.image", 'is not a file field: component quote has no field "image"'],
      ["gallery.5.photo", 'is not a file field: gallery is a list of at most 5 items, so "5" is no position in it'],
      ["gallery.99999999.photo", 'is not a file field: gallery is a list of at most 5 items, so "99999999" is no position in it'],
      ["gallery.x.photo", 'is not a file field: gallery is a list of at most 5 items, so "x" is no position in it'],
    ];
    for (const [path, message] of cases) {
      const answer = await api.send("POST", "/records/pages", nested({ [path]: png() }));
      expect(answer.status, path).toBe(422);
      expect(answer.body.issues, path).toEqual([{ path, message }]);
    }
    const emptyComponent = await api.send("POST", "/records/pages", nested({ "address.photo": png() }, { ...values, address: null }));
    expect(emptyComponent.body.issues).toEqual([{ path: "address.photo", message: "has no item to hold it: address is empty in the values sent" }]);
    // A PATCH that leaves the component out has no item for the file either.
    const created = await api.call("POST", "/records/pages", values);
    const patch = await api.send("PATCH", `/records/pages/${created.body.id as string}`, nested({ "address.photo": png() }, { title: "Only the title" }));
    expect(patch.status).toBe(422);
    expect(patch.body.issues).toEqual([{ path: "address.photo", message: "has no item to hold it: address is empty in the values sent" }]);
    expect(await stored(api)).toEqual(before);
  });

  it("applies the field's accept and maxBytes, refuses a file beside a value, and stores nothing for a refused record", async ({ api }) => {
    const before = await stored(api);
    const wrongType = await api.send("POST", "/records/pages", nested({ "address.photo": new Blob(["%PDF"], { type: "application/pdf" }) }));
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.issues).toEqual([{ path: "address.photo", message: 'must be one of the accepted types image/* (got application/pdf, "f.png")' }]);

    const tooBig = await api.send("POST", "/records/pages", nested({ "gallery.0.photo": new Blob([Buffer.alloc(1001)], { type: "image/png" }) }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.issues).toEqual([{ path: "gallery.0.photo", message: "must be at most 1000 bytes" }]);

    const twice = await api.send("POST", "/records/pages", nested({ "address.photo": png() }, { ...values, address: { photo: "fil_x" } }));
    expect(twice.body.issues).toEqual([{ path: "address.photo", message: "is given twice (as a file and as a value)" }]);

    const entries = Array.from({ length: FILE_LIMITS.nestedFiles + 1 }, () => ({ __component: "hero" }));
    const parts = Object.fromEntries(entries.map((_, index) => [`blocks.${index}.image`, new Blob(["x"])]));
    const tooMany = await api.send("POST", "/records/pages", nested(parts, { ...values, blocks: entries }));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error).toBe(`a request holds at most ${FILE_LIMITS.nestedFiles} files for fields inside components and dynamic zones`);

    const invalid = await api.send("POST", "/records/pages", nested({ "address.photo": png(), "blocks.1.image": new Blob(["x"]) }, { ...values, title: undefined }));
    expect(invalid.status).toBe(422);
    expect(invalid.body.issues).toEqual([{ path: "title", message: "is required" }]);
    expect(await stored(api)).toEqual(before);
  });
});
