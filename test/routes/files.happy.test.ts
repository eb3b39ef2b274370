import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi, type ProjectApi } from "@/test/support/project-api";

type Json = Record<string, unknown>;

let server: RouteServer;
let fixture: ProjectFixture;
let key: string;
let api: ProjectApi;

const DOCS = {
  name: "docs",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "attachment", type: "file" },
    { name: "cover", type: "file", accept: ["image/*", ".svg"], maxBytes: 2_000_000 },
  ],
};

beforeAll(async () => {
  server = await startRouteServer();
  fixture = await createProjectFixture("Files happy");
  key = await fixture.keyFor(["schemas.write", "records.read", "records.create", "records.update", "records.delete"]);
  api = projectApi(server, fixture, { key });
  expect((await api.call("POST", "/schemas", DOCS)).status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

async function download(fileId: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }): Promise<{ response: Response; bytes: Buffer }> {
  const response = await fetch(api.url(`/files/${String(fileId)}`), { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const valuesPart = (values: Json) => new Blob([JSON.stringify(values)], { type: "application/json" });

async function storedFileCount(): Promise<number> {
  return (await getProjectRecordStore({ projectId: fixture.projectId })).count("_files");
}

describe("file uploads", () => {
  it("creates a record from a JSON data part and a file; the download answers the bytes as an attachment", async () => {
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(10_000)]);
    const form = new FormData();
    form.append("data", valuesPart({ title: "Report" }));
    form.append("attachment", new Blob([pdf], { type: "application/pdf" }), "report.pdf");
    const created = await api.send("POST", "/records/docs", form);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Report", cover: null });
    expect(created.body.attachment).toMatch(/^fil_[0-9a-z]{26}$/);

    const { response, bytes } = await download(created.body.attachment);
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

  it("takes plain form fields, stores a large file in chunks and keeps a non-ASCII filename", async () => {
    const big = randomBytes(3 * 1024 * 1024 + 123);
    const form = new FormData();
    form.append("title", "Big one");
    form.append("attachment", new Blob([big], { type: "application/octet-stream" }), "Größe 北京.bin");
    form.append("cover", new Blob([randomBytes(500)], { type: "image/png" }), "cover.png");
    const created = await api.send("POST", "/records/docs", form);
    expect(created.status).toBe(201);

    const store = await getProjectRecordStore({ projectId: fixture.projectId });
    const chunks = await store.find("_file_chunks", { where: [{ field: "fileId", op: "eq", value: created.body.attachment }] });
    expect(chunks).toHaveLength(4);

    const { response, bytes } = await download(created.body.attachment);
    expect(bytes.equals(big)).toBe(true);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="Gr__e __.bin"; filename*=UTF-8''Gr%C3%B6%C3%9Fe%20%E5%8C%97%E4%BA%AC.bin`);
    const cover = await download(created.body.cover);
    expect(cover.response.headers.get("content-type")).toBe("image/png");
  });

  it("accepts a file by extension and records a charset but no other parameters", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    const form = new FormData();
    form.append("title", "Vector");
    form.append("cover", new Blob([svg], { type: "text/plain; charset=UTF-8; x=y" }), "logo.SVG");
    const created = await api.send("POST", "/records/docs", form);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { response, bytes } = await download(created.body.cover);
    expect(bytes.toString()).toBe(svg);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("replaces, clears and deletes files with their record, leaving nothing behind", async () => {
    const baseline = await storedFileCount();
    const form = new FormData();
    form.append("title", "Lifecycle");
    form.append("attachment", new Blob(["first"], { type: "text/plain" }), "first.txt");
    const created = await api.send("POST", "/records/docs", form);
    const first = created.body.attachment;
    expect(await storedFileCount()).toBe(baseline + 1);

    const replace = new FormData();
    replace.append("attachment", new Blob(["second"], { type: "text/plain" }), "second.txt");
    const replaced = await api.send("PATCH", `/records/docs/${created.body.id as string}`, replace);
    expect(replaced.status).toBe(200);
    expect(replaced.body.title).toBe("Lifecycle");
    expect(replaced.body.attachment).not.toBe(first);
    expect((await download(first)).response.status).toBe(404);
    expect((await download(replaced.body.attachment)).bytes.toString()).toBe("second");
    expect(await storedFileCount()).toBe(baseline + 1);

    const cleared = await api.call("PATCH", `/records/docs/${created.body.id as string}`, { attachment: null });
    expect(cleared.body.attachment).toBeNull();
    expect((await download(replaced.body.attachment)).response.status).toBe(404);
    expect(await storedFileCount()).toBe(baseline);

    const both = new FormData();
    both.append("attachment", new Blob(["a"]), "a.bin");
    both.append("cover", new Blob(["c"], { type: "image/gif" }), "c.gif");
    const withBoth = await api.send("PATCH", `/records/docs/${created.body.id as string}`, both);
    expect(await storedFileCount()).toBe(baseline + 2);
    expect((await api.call("DELETE", `/records/docs/${created.body.id as string}`)).status).toBe(204);
    expect((await download(withBoth.body.attachment)).response.status).toBe(404);
    expect((await download(withBoth.body.cover)).response.status).toBe(404);
    expect(await storedFileCount()).toBe(baseline);
  });

  it("ignores an empty file input, as browsers send it", async () => {
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
    const response = await fetch(api.url(`/records/docs/${created.body.id as string}`), {
      method: "PATCH",
      headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ title: "Renamed", attachment: withFile.body.attachment });
  });

  it("lets records of the same field share a file, which stays until the last one lets go", async () => {
    const form = new FormData();
    form.append("title", "Original");
    form.append("attachment", new Blob(["shared"]), "shared.txt");
    const original = await api.send("POST", "/records/docs", form);
    const copy = await api.call("POST", "/records/docs", { title: "Copy", attachment: original.body.attachment });
    expect(copy.status).toBe(201);
    expect((await api.call("DELETE", `/records/docs/${original.body.id as string}`)).status).toBe(204);
    expect((await download(original.body.attachment)).bytes.toString()).toBe("shared");
    expect((await api.call("DELETE", `/records/docs/${copy.body.id as string}`)).status).toBe(204);
    expect((await download(original.body.attachment)).response.status).toBe(404);
  });

  it("serves downloads to the signed-in dashboard owner, and deletes a schema's files with it", async () => {
    expect((await api.call("POST", "/schemas", { name: "scans", kind: "collection", fields: [{ name: "scan", type: "file" }] })).status).toBe(201);
    const form = new FormData();
    form.append("scan", new Blob(["page"]), "scan.txt");
    const created = await api.send("POST", "/records/scans", form);
    const viaSession = await download(created.body.scan, { cookie: fixture.owner.cookie });
    expect(viaSession.response.status).toBe(200);
    expect(viaSession.bytes.toString()).toBe("page");

    const deleted = await api.call("DELETE", "/schemas/scans?confirm=true");
    expect(deleted.body).toEqual({ deleted: "scans", deletedRecords: 1, deletedFiles: 1 });
    expect((await download(created.body.scan)).response.status).toBe(404);
  });
});
