import { describe, expect } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { createProjectFixture } from "@/test/fixtures";
import { projectApi, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

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

const it = routeTest
  /** This project's client with a key for schemas and records, and a `docs` schema with a file field. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
    const api = ownerApi.with({ credentials: { key: await project.keyFor(ALL) } });
    expect((await api.call("POST", "/schemas", DOCS)).status).toBe(201);
    return api;
  })
  /** Another project with the same schema and a secret file of its own, and its client. */
  .extend("theirs", { scope: "file" }, async ({ server }) => {
    const fixture = await createProjectFixture("Theirs");
    const api = projectApi(server, fixture, { key: await fixture.keyFor(ALL) });
    expect((await api.call("POST", "/schemas", DOCS)).status).toBe(201);
    const form = new FormData();
    form.append("attachment", new Blob(["their secret"], { type: "text/plain" }), "secret.txt");
    const fileId = ((await api.send<Json>("POST", "/records/docs", form)).body.attachment as string) ?? "";
    expect(fileId).toMatch(/^fil_/);
    return { projectId: fixture.projectId, api, fileId };
  });

async function uploadRaw(api: ProjectApi, headerLines: string[], content: string): Promise<{ status: number; body: Json }> {
  const boundary = "raw-boundary-1";
  const body = [`--${boundary}`, ...headerLines, "", content, `--${boundary}--`, ""].join("\r\n");
  const response = await api.fetch("/records/docs", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe("file isolation between projects", () => {
  it("never serves another project's file, whichever way it is asked for", async ({ api, theirs }) => {
    const throughMine = await api.fetch(`/files/${theirs.fileId}`);
    expect(throughMine.status).toBe(404);
    expect(await throughMine.json()).toEqual({ error: "file not found", code: "not_found" });
    const throughTheirs = await api.with({ projectId: theirs.projectId }).fetch(`/files/${theirs.fileId}`);
    expect(throughTheirs.status).toBe(404);
    expect(await throughTheirs.json()).toEqual({ error: "project not found", code: "not_found" });
    expect(await (await theirs.api.fetch(`/files/${theirs.fileId}`)).text()).toBe("their secret");
  });

  it("cannot attach another project's file to a record by id", async ({ api, theirs }) => {
    const response = await api.request("POST", "/records/docs", { title: "stolen", attachment: theirs.fileId });
    expect(response.status).toBe(422);
    expect(((await response.json()) as Json).issues).toEqual([{ path: "attachment", message: `no file has the id "${theirs.fileId}"` }]);
  });
});

describe("downloads cannot run in the platform's origin", () => {
  it("answers HTML and SVG uploads as attachments, never sniffed, sandboxed", async ({ api }) => {
    for (const [type, name, content] of [
      ["text/html", "page.html", "<script>alert(document.cookie)</script>"],
      ["image/svg+xml", "image.svg", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ["application/octet-stream", "noext", "<html><script>alert(1)</script>"],
    ]) {
      const form = new FormData();
      form.append("attachment", new Blob([content!], { type: type! }), name!);
      const created = await api.send<Json>("POST", "/records/docs", form);
      expect(created.status).toBe(201);
      const response = await api.fetch(`/files/${created.body.attachment as string}`);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(await response.text()).toBe(content);
    }
  });

  it("strips paths and control characters from filenames, so headers cannot be injected", async ({ api }) => {
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
      const created = await uploadRaw(api, [...headerLines, "Content-Type: text/plain"], "content");
      expect(created.status, headerLines[0]).toBe(201);
      const response = await api.fetch(`/files/${created.body.attachment as string}`);
      expect(response.headers.get("content-disposition"), headerLines[0]).toBe(disposition);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
  });

  it("records the content type's essence and charset only", async ({ api }) => {
    const created = await uploadRaw(api, ['Content-Disposition: form-data; name="attachment"; filename="a.txt"', 'Content-Type: TEXT/HTML; charset="UTF-8"; onload=alert(1)'], "x");
    const response = await api.fetch(`/files/${created.body.attachment as string}`);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});

describe("file permissions", () => {
  it("needs records.read to download and records.create to upload, storing nothing when refused", async ({ project, api }) => {
    const form = new FormData();
    form.append("attachment", new Blob(["mine"]), "mine.txt");
    const created = await api.send<Json>("POST", "/records/docs", form);
    const createOnly = await project.keyFor(["records.create"]);
    expect((await api.with({ credentials: { key: createOnly } }).fetch(`/files/${created.body.attachment as string}`)).status).toBe(403);

    const store = await getProjectRecordStore({ projectId: project.projectId });
    const before = await store.count("_files");
    const readOnly = await project.keyFor(["records.read"]);
    const refused = new FormData();
    refused.append("attachment", new Blob(["x"]), "x.txt");
    expect((await api.with({ credentials: { key: readOnly } }).send("POST", "/records/docs", refused)).status).toBe(403);
    const updateOnly = await project.keyFor(["records.update"]);
    expect((await api.with({ credentials: { key: updateOnly } }).send("POST", "/records/docs", refused)).status).toBe(403);
    expect(await store.count("_files")).toBe(before);
    expect((await api.with({ credentials: { key: readOnly } }).fetch(`/files/${created.body.attachment as string}`)).status).toBe(200);
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

  it("refuses prototype names in part paths, polluting nothing and storing nothing", async ({ project, api }) => {
    for (const definition of NESTED) expect((await api.call("POST", "/schemas", definition)).status).toBe(201);
    const store = await getProjectRecordStore({ projectId: project.projectId });
    const before = await store.count("_files");
    for (const path of ["card.__proto__", "__proto__.image", "constructor.prototype", "cards.0.constructor", "card.image.__proto__"]) {
      const form = new FormData();
      form.append("data", new Blob([JSON.stringify({ title: "p", card: {}, cards: [{}] })], { type: "application/json" }));
      form.append(path, new Blob(["x"], { type: "text/plain" }), "x.txt");
      const answer = await api.send<Json>("POST", "/records/posts", form);
      expect(answer.status, path).toBe(422);
      expect(answer.body.issues, path).toEqual([{ path, message: "is not a field path: __proto__, constructor and prototype are never walked into" }]);
    }
    expect(({} as Json).image).toBeUndefined();
    expect(await store.count("_files")).toBe(before);
  });

  it("never lets another record, or another field of the same record, hold a file uploaded into a component", async ({ api }) => {
    const form = new FormData();
    form.append("data", new Blob([JSON.stringify({ title: "owner", card: { caption: "c" }, cards: [{ caption: "a" }] })], { type: "application/json" }));
    form.append("card.image", new Blob(["owned"], { type: "text/plain" }), "owned.txt");
    const owner = await api.send<Json>("POST", "/records/posts", form);
    expect(owner.status, JSON.stringify(owner.body)).toBe(201);
    const fileId = (owner.body.card as Json).image as string;

    const message = `file "${fileId}" belongs to another record or field; upload it again for this one`;
    const copied = await api.call("POST", "/records/posts", { title: "thief", card: { image: fileId } });
    expect(copied.status).toBe(422);
    expect(copied.body.issues).toEqual([{ path: "card.image", message }]);
    const other = await api.call("POST", "/records/posts", { title: "other" });
    const patched = await api.call("PATCH", `/records/posts/${other.body.id as string}`, { cards: [{ image: fileId }] });
    expect(patched.body.issues).toEqual([{ path: "cards.0.image", message }]);
    const moved = await api.call("PATCH", `/records/posts/${owner.body.id as string}`, { cards: [{ image: fileId }] });
    expect(moved.body.issues).toEqual([{ path: "cards.0.image", message }]);
    // The owner keeps it where it is; the file is still there.
    expect((await api.call("PATCH", `/records/posts/${owner.body.id as string}`, { card: { image: fileId, caption: "kept" } })).status).toBe(200);
    expect((await api.fetch(`/files/${fileId}`)).status).toBe(200);
  });
});
