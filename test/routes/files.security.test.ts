import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { closePlatformDb } from "@/lib/platform-db/client";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createProjectFixture, type ProjectFixture } from "@/test/fixtures";
import { startRouteServer, type RouteServer } from "@/test/http-harness";
import { projectApi } from "@/test/support/project-api";

/**
 * Security cases specific to uploads and downloads (the generic sweep of every project route is in
 * project-routes.security.test.ts).
 */
type Json = Record<string, unknown>;

const ALL: Permission[] = ["schemas.write", "records.read", "records.create", "records.update", "records.delete"];
const DOCS = {
  name: "docs",
  kind: "collection",
  fields: [
    { name: "title", type: "string" },
    { name: "attachment", type: "file" },
  ],
};

let server: RouteServer;
let mine: ProjectFixture;
let theirs: ProjectFixture;
let myKey: string;
let theirKey: string;
let theirFileId: string;

beforeAll(async () => {
  server = await startRouteServer();
  mine = await createProjectFixture("Mine");
  theirs = await createProjectFixture("Theirs");
  myKey = await mine.keyFor(ALL);
  theirKey = await theirs.keyFor(ALL);
  for (const [project, key] of [
    [mine, myKey],
    [theirs, theirKey],
  ] as const) {
    expect((await projectApi(server, project, { key }).call("POST", "/schemas", DOCS)).status).toBe(201);
  }
  const form = new FormData();
  form.append("attachment", new Blob(["their secret"], { type: "text/plain" }), "secret.txt");
  theirFileId = ((await upload(theirs.projectId, theirKey, form)).body.attachment as string) ?? "";
  expect(theirFileId).toMatch(/^fil_/);
});
afterAll(async () => {
  await server?.close();
  await closePlatformDb();
});

function upload(projectId: string, key: string, form: FormData, method = "POST", pathname = "/records/docs"): Promise<{ status: number; body: Json }> {
  return projectApi(server, { projectId }, { key }).send<Json>(method, pathname, form);
}

async function uploadRaw(headerLines: string[], content: string): Promise<{ status: number; body: Json }> {
  const boundary = "raw-boundary-1";
  const body = [`--${boundary}`, ...headerLines, "", content, `--${boundary}--`, ""].join("\r\n");
  const response = await fetch(`${server.url}/api/projects/${mine.projectId}/records/docs`, {
    method: "POST",
    headers: { authorization: `Bearer ${myKey}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

function download(projectId: string, key: string, fileId: string): Promise<Response> {
  return fetch(`${server.url}/api/projects/${projectId}/files/${fileId}`, { headers: { authorization: `Bearer ${key}` } });
}

describe("file isolation between projects", () => {
  it("never serves another project's file, whichever way it is asked for", async () => {
    const throughMine = await download(mine.projectId, myKey, theirFileId);
    expect(throughMine.status).toBe(404);
    expect(await throughMine.json()).toEqual({ error: "file not found", code: "not_found" });
    const throughTheirs = await download(theirs.projectId, myKey, theirFileId);
    expect(throughTheirs.status).toBe(404);
    expect(await throughTheirs.json()).toEqual({ error: "project not found", code: "not_found" });
    expect(await (await download(theirs.projectId, theirKey, theirFileId)).text()).toBe("their secret");
  });

  it("cannot attach another project's file to a record by id", async () => {
    const response = await fetch(`${server.url}/api/projects/${mine.projectId}/records/docs`, {
      method: "POST",
      headers: { authorization: `Bearer ${myKey}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "stolen", attachment: theirFileId }),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as Json).issues).toEqual([{ path: "attachment", message: `no file has the id "${theirFileId}"` }]);
  });
});

describe("downloads cannot run in the platform's origin", () => {
  it("answers HTML and SVG uploads as attachments, never sniffed, sandboxed", async () => {
    for (const [type, name, content] of [
      ["text/html", "page.html", "<script>alert(document.cookie)</script>"],
      ["image/svg+xml", "image.svg", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ["application/octet-stream", "noext", "<html><script>alert(1)</script>"],
    ]) {
      const form = new FormData();
      form.append("attachment", new Blob([content!], { type: type! }), name!);
      const created = await upload(mine.projectId, myKey, form);
      expect(created.status).toBe(201);
      const response = await download(mine.projectId, myKey, created.body.attachment as string);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(await response.text()).toBe(content);
    }
  });

  it("strips paths and control characters from filenames, so headers cannot be injected", async () => {
    const cases: Array<[string[], string]> = [
      [['Content-Disposition: form-data; name="attachment"; filename="../../etc/passwd"'], "attachment; filename=\"passwd\"; filename*=UTF-8''passwd"],
      [['Content-Disposition: form-data; name="attachment"; filename="C:\\\\fakepath\\\\report.txt"'], "attachment; filename=\"report.txt\"; filename*=UTF-8''report.txt"],
      [
        [`Content-Disposition: form-data; name="attachment"; filename*=UTF-8''a%0D%0ASet-Cookie%3A%20x%3D1%0D%0A.txt`],
        "attachment; filename=\"aSet-Cookie: x=1.txt\"; filename*=UTF-8''aSet-Cookie%3A%20x%3D1.txt",
      ],
      [['Content-Disposition: form-data; name="attachment"; filename="quote\\"s;.txt"'], "attachment; filename=\"quote_s;.txt\"; filename*=UTF-8''quote%22s%3B.txt"],
      [['Content-Disposition: form-data; name="attachment"; filename=".."'], "attachment; filename=\"file\"; filename*=UTF-8''file"],
    ];
    for (const [headerLines, disposition] of cases) {
      const created = await uploadRaw([...headerLines, "Content-Type: text/plain"], "content");
      expect(created.status, headerLines[0]).toBe(201);
      const response = await download(mine.projectId, myKey, created.body.attachment as string);
      expect(response.headers.get("content-disposition"), headerLines[0]).toBe(disposition);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("records the content type's essence and charset only", async () => {
    const created = await uploadRaw(['Content-Disposition: form-data; name="attachment"; filename="a.txt"', 'Content-Type: TEXT/HTML; charset="UTF-8"; onload=alert(1)'], "x");
    const response = await download(mine.projectId, myKey, created.body.attachment as string);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});

describe("file permissions", () => {
  it("needs records.read to download and records.create to upload, storing nothing when refused", async () => {
    const form = new FormData();
    form.append("attachment", new Blob(["mine"]), "mine.txt");
    const created = await upload(mine.projectId, myKey, form);
    const createOnly = await mine.keyFor(["records.create"]);
    expect((await download(mine.projectId, createOnly, created.body.attachment as string)).status).toBe(403);

    const store = await getProjectRecordStore({ projectId: mine.projectId });
    const before = await store.count("_files");
    const readOnly = await mine.keyFor(["records.read"]);
    const refused = new FormData();
    refused.append("attachment", new Blob(["x"]), "x.txt");
    expect((await upload(mine.projectId, readOnly, refused)).status).toBe(403);
    const updateOnly = await mine.keyFor(["records.update"]);
    expect((await upload(mine.projectId, updateOnly, refused)).status).toBe(403);
    expect(await store.count("_files")).toBe(before);
    expect((await download(mine.projectId, readOnly, created.body.attachment as string)).status).toBe(200);
  });
});

describe("files inside components belong to their record", () => {
  const NESTED = [
    {
      name: "card",
      kind: "component",
      fields: [
        { name: "image", type: "file" },
        { name: "caption", type: "string" },
      ],
    },
    {
      name: "posts",
      kind: "collection",
      fields: [
        { name: "title", type: "string" },
        { name: "card", type: "component", component: "card" },
        { name: "cards", type: "component", component: "card", repeatable: true },
      ],
    },
  ];
  const api = () => projectApi(server, mine, { key: myKey });

  it("refuses prototype names in part paths, polluting nothing and storing nothing", async () => {
    for (const definition of NESTED) expect((await api().call("POST", "/schemas", definition)).status).toBe(201);
    const store = await getProjectRecordStore({ projectId: mine.projectId });
    const before = await store.count("_files");
    for (const path of ["card.__proto__", "__proto__.image", "constructor.prototype", "cards.0.constructor", "card.image.__proto__"]) {
      const form = new FormData();
      form.append("data", new Blob([JSON.stringify({ title: "p", card: {}, cards: [{}] })], { type: "application/json" }));
      form.append(path, new Blob(["x"], { type: "text/plain" }), "x.txt");
      const answer = await upload(mine.projectId, myKey, form, "POST", "/records/posts");
      expect(answer.status, path).toBe(422);
      expect(answer.body.issues, path).toEqual([{ path, message: "is not a field path: __proto__, constructor and prototype are never walked into" }]);
    }
    expect(({} as Json).image).toBeUndefined();
    expect(await store.count("_files")).toBe(before);
  });

  it("never lets another record, or another field of the same record, hold a file uploaded into a component", async () => {
    const form = new FormData();
    form.append("data", new Blob([JSON.stringify({ title: "owner", card: { caption: "c" }, cards: [{ caption: "a" }] })], { type: "application/json" }));
    form.append("card.image", new Blob(["owned"], { type: "text/plain" }), "owned.txt");
    const owner = await upload(mine.projectId, myKey, form, "POST", "/records/posts");
    expect(owner.status, JSON.stringify(owner.body)).toBe(201);
    const fileId = (owner.body.card as Json).image as string;

    const message = `file "${fileId}" belongs to another record or field; upload it again for this one`;
    const copied = await api().call("POST", "/records/posts", { title: "thief", card: { image: fileId } });
    expect(copied.status).toBe(422);
    expect(copied.body.issues).toEqual([{ path: "card.image", message }]);
    const other = await api().call("POST", "/records/posts", { title: "other" });
    const patched = await api().call("PATCH", `/records/posts/${other.body.id as string}`, { cards: [{ image: fileId }] });
    expect(patched.body.issues).toEqual([{ path: "cards.0.image", message }]);
    const moved = await api().call("PATCH", `/records/posts/${owner.body.id as string}`, { cards: [{ image: fileId }] });
    expect(moved.body.issues).toEqual([{ path: "cards.0.image", message }]);
    // The owner keeps it where it is; the file is still there.
    expect((await api().call("PATCH", `/records/posts/${owner.body.id as string}`, { card: { image: fileId, caption: "kept" } })).status).toBe(200);
    expect((await download(mine.projectId, myKey, fileId)).status).toBe(200);
  });
});
