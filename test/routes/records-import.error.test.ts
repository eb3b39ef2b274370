import { describe, expect } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { backendProjectsOnce } from "@/test/support/backend-projects";
import { createDatabaseHostAllowance } from "@/test/support/database-host-allowance";
import { importBackends, ndjson, postImport } from "@/test/support/records-import";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * `POST /records/:schema/import` when lines or requests are wrong, on every customer database
 * backend of the run: failed lines are reported with their numbers and the same issues a single
 * create answers, and the rest is imported; the caps and the request's own errors.
 */
const PERMISSIONS: Permission[] = ["schemas.write", "records.read", "records.create"];
const AUTHORS = { name: "authors", kind: "collection", fields: [{ name: "name", type: "string", required: true }] };
const SEO = { name: "seo", kind: "component", fields: [{ name: "title", type: "string" }] };
const POSTS = {
  name: "posts",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "slug", type: "string", unique: true },
    { name: "status", type: "enum", values: ["draft", "live"] },
    { name: "author", type: "relation", target: "authors" },
  ],
};

type Body = Record<string, unknown> & { data?: Array<Record<string, unknown>> };
const databaseHosts = createDatabaseHostAllowance();

const it = routeTest
  /**
   * The project of each backend, opened on first use with the authors, seo and posts schemas and one
   * author: its key and client, and the two things the tests ask of its posts.
   */
  .extend("importProject", { scope: "file" }, ({ server }, { onCleanup }) =>
    backendProjectsOnce(
      async (project) => {
        const key = await project.keyFor(PERMISSIONS);
        const api = projectApi(server, project, { key });
        for (const schema of [AUTHORS, SEO, POSTS]) expect((await api.call("POST", "/schemas", schema)).status).toBe(201);
        const authorId = (await api.call("POST", "/records/authors", { name: "Ada" })).body.id as string;
        return {
          key,
          api,
          authorId,
          /** Imports `text` into the posts. */
          importPosts: (text: string, options?: Parameters<typeof postImport>[5]) => postImport(server.url, project.projectId, key, "posts", text, options),
          /** The posts' slugs, oldest first. */
          slugs: async () => ((await api.call<Body>("GET", "/records/posts?sort=createdAt&perPage=100")).body.data ?? []).map((record) => record.slug),
        };
      },
      { onCleanup, databaseHosts },
    ),
  );

for (const backend of importBackends(databaseHosts)) {
  describe(`records import errors on ${backend.name}`, () => {
    // The project is opened under the hook timeout, not the first test's.
    it.beforeAll(async ({ importProject }) => void (await importProject(backend)));

    it("reports failed lines with their numbers and issues, and imports the others", async ({ importProject }) => {
      const { api, authorId, importPosts, slugs } = await importProject(backend);
      expect((await api.call<Body>("POST", "/records/posts", { title: "Existing", slug: "taken" })).status).toBe(201);
      const text = ndjson([
        { title: "First", slug: "first", author: authorId }, // 1
        '{"title": "broken",', // 2
        "42", // 3
        { slug: "untitled" }, // 4
        "", // 5
        { title: "Copy", slug: "first" }, // 6: the same slug as line 1
        { title: "Clash", slug: "taken" }, // 7: the slug of an existing record
        { title: "Orphan", author: "rec_nobody" }, // 8
        { title: "Wrong", status: "archived", createdAt: "2020-01-01T00:00:00Z" }, // 9
        { title: "Last", slug: "last" }, // 10
      ]);
      const answer = await importPosts(text);
      expect(answer.status).toBe(200);
      expect(answer.body.imported).toBe(2);
      expect(answer.body.failedCount).toBe(7);
      expect(answer.body.failed).toEqual([
        { line: 2, issues: [{ path: "", message: "the line is not valid JSON" }] },
        { line: 3, issues: [{ path: "", message: "must be a JSON object" }] },
        { line: 4, issues: [{ path: "title", message: expect.any(String) }] },
        { line: 6, issues: [{ path: "slug", message: "must be unique: line 1 of this import has the same value" }] },
        { line: 7, issues: [{ path: "slug", message: "must be unique: another record already has this value" }] },
        { line: 8, issues: [{ path: "author", message: 'no authors record has the id "rec_nobody"' }] },
        {
          line: 9,
          issues: expect.arrayContaining([
            { path: "status", message: expect.any(String) },
            { path: "createdAt", message: expect.stringContaining("set by the server") },
          ]),
        },
      ]);
      expect(await slugs()).toEqual(["taken", "first", "last"]);
      // A second import of the same lines: line 1's slug is now taken too.
      const again = await importPosts(ndjson([{ title: "First", slug: "first" }]));
      expect(again.body).toEqual({
        imported: 0,
        failedCount: 1,
        failed: [{ line: 1, issues: [{ path: "slug", message: "must be unique: another record already has this value" }] }],
      });
    });

    it("fails a line over 100 KB and goes on with the next", async ({ importProject }) => {
      const { importPosts, slugs } = await importProject(backend);
      const long = JSON.stringify({ title: "x".repeat(100 * 1024) });
      const answer = await importPosts(`${long}\n${JSON.stringify({ title: "after the long one", slug: "after-long" })}\n`, { chunkBytes: 16 * 1024 });
      expect(answer.body).toEqual({ imported: 1, failedCount: 1, failed: [{ line: 1, issues: [{ path: "", message: "the line is longer than 102400 bytes" }] }] });
      expect(await slugs()).toContain("after-long");
    });

    it("lists the first 100 failures and counts them all", async ({ importProject }) => {
      const { importPosts } = await importProject(backend);
      const answer = await importPosts(Array.from({ length: 150 }, () => "nope").join("\n"));
      expect(answer.status).toBe(200);
      expect(answer.body.imported).toBe(0);
      expect(answer.body.failedCount).toBe(150);
      expect(answer.body.failed!.map((failure) => failure.line)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    });

    it("stops past 1,000,000 lines with 413, after importing the lines before", async ({ importProject }) => {
      const { importPosts, slugs } = await importProject(backend);
      const text = `${JSON.stringify({ title: "within the cap", slug: "within-cap" })}\n${"\n".repeat(999_999)}${JSON.stringify({ title: "past the cap", slug: "past-cap" })}\n`;
      const answer = await importPosts(text, { chunkBytes: 64 * 1024 });
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({
        error: "an import reads at most 1000000 lines: it stopped before line 1000001 after importing 1 records (0 lines failed); import the rest separately",
        code: "payload_too_large",
      });
      const stored = await slugs();
      expect(stored).toContain("within-cap");
      expect(stored).not.toContain("past-cap");
    });

    it("refuses anything but NDJSON with 415, before reading it", async ({ importProject }) => {
      const { importPosts, slugs } = await importProject(backend);
      for (const contentType of ["application/json", "text/plain", "multipart/form-data; boundary=x", "application/x-ndjson; charset=latin1"]) {
        const answer = await importPosts(JSON.stringify({ title: "typed wrong", slug: "typed-wrong" }), { contentType });
        expect(answer.status, contentType).toBe(415);
        expect(answer.body.error, contentType).toMatch(/x-ndjson|UTF-8/);
      }
      expect((await importPosts(JSON.stringify({ title: "typed right" }), { contentType: "application/x-ndjson; charset=utf-8" })).body.imported).toBe(1);
      expect(await slugs()).not.toContain("typed-wrong");
    });

    it("answers 404 for an unknown schema or a component, and 400 for query parameters", async ({ server, importProject }) => {
      const { key, importPosts, ...project } = await importProject(backend);
      const unknown = await postImport(server.url, project.projectId, key, "ghosts", "{}");
      expect(unknown).toEqual({ status: 404, body: { error: 'no schema named "ghosts" in this project', code: "not_found" } });
      expect((await postImport(server.url, project.projectId, key, "seo", "{}")).status).toBe(404);
      const query = await importPosts('{"title":"q"}', { query: "?dryRun=true" });
      expect(query.status).toBe(400);
      expect(query.body.issues).toEqual([{ path: "dryRun", message: expect.any(String) }]);
    });

    it("has no other methods", async ({ importProject }) => {
      const { api } = await importProject(backend);
      for (const method of ["GET", "PUT", "DELETE"]) {
        const response = await api.fetch("/records/posts/import", { method });
        expect(response.status, method).toBe(405);
      }
    });
  });
}
