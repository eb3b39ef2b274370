import { randomBytes } from "node:crypto";
import { describe, expect } from "vitest";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

type Json = Record<string, unknown>;

const DOCS = {
  name: "docs",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "attachment", type: "file" },
    { name: "cover", type: "file", accept: ["image/*", ".svg"], maxBytes: 2_000_000 },
  ],
};

/** File fields inside a component, a repeatable component and dynamic-zone entries. */
const NESTED = [
  {
    name: "place",
    kind: "component",
    fields: [
      { name: "street", type: "string" },
      { name: "photo", type: "file", accept: ["image/*"] },
    ],
  },
  {
    name: "hero",
    kind: "component",
    fields: [
      { name: "heading", type: "string" },
      { name: "image", type: "file" },
    ],
  },
  { name: "quote", kind: "component", fields: [{ name: "text", type: "text" }] },
  {
    name: "pages",
    kind: "collection",
    fields: [
      { name: "title", type: "string", required: true },
      { name: "address", type: "component", component: "place" },
      { name: "gallery", type: "component", component: "place", repeatable: true },
      { name: "blocks", type: "dynamic_zone", components: ["hero", "quote"] },
    ],
  },
];

/** The client with a key for schemas and records, on a project with `docs` and the `pages` with nested file fields. */
const it = routeTest.extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
  const api = ownerApi.with({ credentials: { key: await project.keyFor(["schemas.write", "records.read", "records.create", "records.update", "records.delete"]) } });
  expect((await api.call("POST", "/schemas", DOCS)).status).toBe(201);
  for (const definition of NESTED) expect((await api.call("POST", "/schemas", definition)).status).toBe(201);
  return api;
});

async function download(api: ProjectApi, fileId: unknown): Promise<{ response: Response; bytes: Buffer }> {
  const response = await api.fetch(`/files/${String(fileId)}`);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const valuesPart = (values: Json) => new Blob([JSON.stringify(values)], { type: "application/json" });

async function storedFileCount(api: ProjectApi): Promise<number> {
  return (await getProjectRecordStore({ projectId: api.projectId })).count("_files");
}

describe("file uploads", () => {
  it("creates a record from a JSON data part and a file; the download answers the bytes as an attachment", async ({ api }) => {
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(10_000)]);
    const form = new FormData();
    form.append("data", valuesPart({ title: "Report" }));
    form.append("attachment", new Blob([pdf], { type: "application/pdf" }), "report.pdf");
    const created = await api.send("POST", "/records/docs", form);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Report", cover: null });
    expect(created.body.attachment).toMatch(/^fil_[0-9a-z]{26}$/);

    const { response, bytes } = await download(api, created.body.attachment);
    expect(response.status).toBe(200);
    expect(bytes.equals(pdf)).toBe(true);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-length")).toBe(String(pdf.length));
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(response.headers.get("cache-control")).toBe("private, no-store");

    // The record read back holds the same file id.
    expect((await api.call("GET", `/records/docs/${created.body.id as string}`)).body.attachment).toBe(created.body.attachment);
  });

  it("takes plain form fields, stores a large file in chunks and keeps a non-ASCII filename", async ({ project, api }) => {
    const big = randomBytes(3 * 1024 * 1024 + 123);
    const form = new FormData();
    form.append("title", "Big one");
    form.append("attachment", new Blob([big], { type: "application/octet-stream" }), "Größe 北京.bin");
    form.append("cover", new Blob([randomBytes(500)], { type: "image/png" }), "cover.png");
    const created = await api.send("POST", "/records/docs", form);
    expect(created.status).toBe(201);

    const store = await getProjectRecordStore({ projectId: project.projectId });
    const chunks = await store.find("_file_chunks", { where: [{ field: "fileId", op: "eq", value: created.body.attachment }] });
    expect(chunks).toHaveLength(4);

    const { response, bytes } = await download(api, created.body.attachment);
    expect(bytes.equals(big)).toBe(true);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="Gr__e __.bin"; filename*=UTF-8''Gr%C3%B6%C3%9Fe%20%E5%8C%97%E4%BA%AC.bin`);
    const cover = await download(api, created.body.cover);
    expect(cover.response.headers.get("content-type")).toBe("image/png");
  });

  it("accepts a file by extension and records a charset but no other parameters", async ({ api }) => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    const form = new FormData();
    form.append("title", "Vector");
    form.append("cover", new Blob([svg], { type: "text/plain; charset=UTF-8; x=y" }), "logo.SVG");
    const created = await api.send("POST", "/records/docs", form);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { response, bytes } = await download(api, created.body.cover);
    expect(bytes.toString()).toBe(svg);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("replaces, clears and deletes files with their record, leaving nothing behind", async ({ api }) => {
    const baseline = await storedFileCount(api);
    const form = new FormData();
    form.append("title", "Lifecycle");
    form.append("attachment", new Blob(["first"], { type: "text/plain" }), "first.txt");
    const created = await api.send("POST", "/records/docs", form);
    const first = created.body.attachment;
    expect(await storedFileCount(api)).toBe(baseline + 1);

    const replace = new FormData();
    replace.append("attachment", new Blob(["second"], { type: "text/plain" }), "second.txt");
    const replaced = await api.send("PATCH", `/records/docs/${created.body.id as string}`, replace);
    expect(replaced.status).toBe(200);
    expect(replaced.body.title).toBe("Lifecycle");
    expect(replaced.body.attachment).not.toBe(first);
    expect((await download(api, first)).response.status).toBe(404);
    expect((await download(api, replaced.body.attachment)).bytes.toString()).toBe("second");
    expect(await storedFileCount(api)).toBe(baseline + 1);

    const cleared = await api.call("PATCH", `/records/docs/${created.body.id as string}`, { attachment: null });
    expect(cleared.body.attachment).toBeNull();
    expect((await download(api, replaced.body.attachment)).response.status).toBe(404);
    expect(await storedFileCount(api)).toBe(baseline);

    const both = new FormData();
    both.append("attachment", new Blob(["a"]), "a.bin");
    both.append("cover", new Blob(["c"], { type: "image/gif" }), "c.gif");
    const withBoth = await api.send("PATCH", `/records/docs/${created.body.id as string}`, both);
    expect(await storedFileCount(api)).toBe(baseline + 2);
    expect((await api.call("DELETE", `/records/docs/${created.body.id as string}`)).status).toBe(204);
    expect((await download(api, withBoth.body.attachment)).response.status).toBe(404);
    expect((await download(api, withBoth.body.cover)).response.status).toBe(404);
    expect(await storedFileCount(api)).toBe(baseline);
  });

  it("ignores an empty file input, as browsers send it", async ({ api }) => {
    const created = await api.call("POST", "/records/docs", { title: "Keeps its file" });
    const form = new FormData();
    form.append("attachment", new Blob(["kept"]), "kept.txt");
    const withFile = await api.send("PATCH", `/records/docs/${created.body.id as string}`, form);
    const boundary = "----browser-empty-input";
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="title"',
      "",
      "Renamed",
      `--${boundary}`,
      'Content-Disposition: form-data; name="attachment"; filename=""',
      "Content-Type: application/octet-stream",
      "",
      "",
      `--${boundary}--`,
      "",
    ].join("\r\n");
    const response = await api.fetch(`/records/docs/${created.body.id as string}`, {
      method: "PATCH",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ title: "Renamed", attachment: withFile.body.attachment });
  });

  it("lets records of the same field share a file, which stays until the last one lets go", async ({ api }) => {
    const form = new FormData();
    form.append("title", "Original");
    form.append("attachment", new Blob(["shared"]), "shared.txt");
    const original = await api.send("POST", "/records/docs", form);
    const copy = await api.call("POST", "/records/docs", { title: "Copy", attachment: original.body.attachment });
    expect(copy.status).toBe(201);
    expect((await api.call("DELETE", `/records/docs/${original.body.id as string}`)).status).toBe(204);
    expect((await download(api, original.body.attachment)).bytes.toString()).toBe("shared");
    expect((await api.call("DELETE", `/records/docs/${copy.body.id as string}`)).status).toBe(204);
    expect((await download(api, original.body.attachment)).response.status).toBe(404);
  });

  it("serves downloads to the signed-in dashboard owner, and deletes a schema's files with it", async ({ project, api }) => {
    expect((await api.call("POST", "/schemas", { name: "scans", kind: "collection", fields: [{ name: "scan", type: "file" }] })).status).toBe(201);
    const form = new FormData();
    form.append("scan", new Blob(["page"]), "scan.txt");
    const created = await api.send("POST", "/records/scans", form);
    const viaSession = await download(api.with({ credentials: { cookie: project.owner.cookie } }), created.body.scan);
    expect(viaSession.response.status).toBe(200);
    expect(viaSession.bytes.toString()).toBe("page");

    const deleted = await api.call("DELETE", "/schemas/scans?confirm=true");
    expect(deleted.body).toEqual({ deleted: "scans", deletedRecords: 1, deletedFiles: 1 });
    expect((await download(api, created.body.scan)).response.status).toBe(404);
  });
});

describe("files inside components and dynamic zones", () => {
  const png = (text: string) => new Blob([text], { type: "image/png" });
  const storedFile = async (api: ProjectApi, id: unknown) => (await getProjectRecordStore({ projectId: api.projectId })).findByIds("_files", [String(id)]).then(([file]) => file);

  it("uploads into a component, a repeatable component's item and a zone entry, each id at its path", async ({ api }) => {
    const baseline = await storedFileCount(api);
    const form = new FormData();
    form.append(
      "data",
      valuesPart({
        title: "Nested",
        address: { street: "Main" },
        gallery: [{ street: "first" }, { street: "second" }],
        blocks: [
          { __component: "quote", text: "hi" },
          { __component: "hero", heading: "Big" },
        ],
      }),
    );
    form.append("address.photo", png("front"), "front.png");
    form.append("gallery.1.photo", png("second"), "second.png");
    form.append("blocks.1.image", new Blob(["hero bytes"], { type: "text/plain" }), "hero.txt");
    const created = await api.send("POST", "/records/pages", form);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const body = created.body as { id: string; address: Json; gallery: Json[]; blocks: Json[] };
    expect(body.address).toMatchObject({ street: "Main", photo: expect.stringMatching(/^fil_/) });
    expect(body.gallery[0]).toEqual({ street: "first", photo: null });
    expect(body.gallery[1]!.photo).toMatch(/^fil_/);
    expect(body.blocks[1]).toMatchObject({ __component: "hero", heading: "Big", image: expect.stringMatching(/^fil_/) });
    expect(await storedFileCount(api)).toBe(baseline + 3);

    expect((await download(api, body.address.photo)).bytes.toString()).toBe("front");
    expect((await download(api, body.gallery[1]!.photo)).bytes.toString()).toBe("second");
    const hero = await download(api, body.blocks[1]!.image);
    expect(hero.bytes.toString()).toBe("hero bytes");
    expect(hero.response.headers.get("content-disposition")).toContain('filename="hero.txt"');
    // Marked with the path without positions and with their record: only that record may hold them.
    expect(await storedFile(api, body.blocks[1]!.image)).toMatchObject({ schema: "pages", field: "blocks.image", record: body.id });
    expect(await storedFile(api, body.gallery[1]!.photo)).toMatchObject({ schema: "pages", field: "gallery.photo", record: body.id });
  });

  it("keeps files with their entries when entries are reordered, releases a replaced or removed one, and all of them with the record", async ({ api }) => {
    const baseline = await storedFileCount(api);
    const form = new FormData();
    form.append(
      "data",
      valuesPart({
        title: "Lifecycle",
        address: { street: "A" },
        blocks: [
          { __component: "hero", heading: "one" },
          { __component: "hero", heading: "two" },
        ],
      }),
    );
    form.append("address.photo", png("old photo"), "old.png");
    form.append("blocks.0.image", new Blob(["one"]), "one.txt");
    form.append("blocks.1.image", new Blob(["two"]), "two.txt");
    const created = await api.send("POST", "/records/pages", form);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const [one, two] = (created.body.blocks as Json[]).map((block) => block.image as string);
    const oldPhoto = (created.body.address as Json).photo as string;
    expect(await storedFileCount(api)).toBe(baseline + 3);

    // Reordered as JSON: the ids move with their entries and every file stays.
    const reordered = await api.call("PATCH", `/records/pages/${id}`, { blocks: [(created.body.blocks as Json[])[1], (created.body.blocks as Json[])[0]] });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    expect((reordered.body.blocks as Json[]).map((block) => block.image)).toEqual([two, one]);
    expect(await storedFileCount(api)).toBe(baseline + 3);

    // Replaced inside the component, by path: the old file is released at once.
    const replace = new FormData();
    replace.append("data", valuesPart({ address: { street: "A" } }));
    replace.append("address.photo", png("new photo"), "new.png");
    const replaced = await api.send("PATCH", `/records/pages/${id}`, replace);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const newPhoto = (replaced.body.address as Json).photo as string;
    expect(newPhoto).not.toBe(oldPhoto);
    expect((await download(api, oldPhoto)).response.status).toBe(404);
    expect((await download(api, newPhoto)).bytes.toString()).toBe("new photo");
    expect((await download(api, one)).bytes.toString()).toBe("one");
    expect(await storedFileCount(api)).toBe(baseline + 3);

    // The entry holding "two" removed: its file goes, the other stays.
    const removed = await api.call("PATCH", `/records/pages/${id}`, { blocks: [(reordered.body.blocks as Json[])[1]] });
    expect(removed.status).toBe(200);
    expect((await download(api, two)).response.status).toBe(404);
    expect((await download(api, one)).bytes.toString()).toBe("one");
    expect(await storedFileCount(api)).toBe(baseline + 2);

    expect((await api.call("DELETE", `/records/pages/${id}`)).status).toBe(204);
    expect((await download(api, one)).response.status).toBe(404);
    expect((await download(api, newPhoto)).response.status).toBe(404);
    expect(await storedFileCount(api)).toBe(baseline);
  });
});
