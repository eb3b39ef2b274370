import { describe, expect } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { closeAutomationQueue } from "@/lib/automations/queue/get-automation-queue";
import { backendProjectsOnce } from "@/test/support/backend-projects";
import { automationRunsAfterQuiet, waitForAutomationRuns } from "@/test/support/automation-runs";
import { createDatabaseHostAllowance } from "@/test/support/database-host-allowance";
import { importBackends, ndjson, postImport } from "@/test/support/records-import";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * `POST /records/:schema/import` over real HTTP on every customer database backend of the run
 * (PGlite always, PostgreSQL with DATABASE_URL): a few hundred lines with relations and unique
 * fields, streamed in chunks that cut lines and characters, stored exactly as single creates would
 * store them, in the file's order, and without starting record automations.
 */
const PERMISSIONS: Permission[] = ["schemas.write", "records.read", "records.create", "automations.read", "automations.write"];
const AUTHORS = {
  name: "authors",
  kind: "collection",
  fields: [
    { name: "name", type: "string", required: true },
    { name: "handle", type: "string", unique: true },
  ],
};
const POSTS = {
  name: "posts",
  kind: "collection",
  fields: [
    { name: "title", type: "string", required: true },
    { name: "slug", type: "string", unique: true },
    { name: "views", type: "integer", default: 0 },
    { name: "status", type: "enum", values: ["draft", "live"], default: "draft" },
    { name: "publishedAt", type: "datetime" },
    { name: "contact", type: "email" },
    { name: "author", type: "relation", target: "authors" },
    { name: "tags", type: "relation", target: "authors", many: true },
  ],
};

type Body = Record<string, unknown> & { data?: Array<Record<string, unknown>>; meta?: Record<string, unknown> };
const databaseHosts = createDatabaseHostAllowance();

const it = routeTest
  /** The automation queue the record automations use, closed when the file ends. */
  .extend("automationQueue", { scope: "file" }, ({}, { onCleanup }) => onCleanup(() => closeAutomationQueue()))
  /** The project of each backend, opened on first use with the authors and posts schemas and twenty authors, and its key and client. */
  .extend("importProject", { scope: "file" }, ({ automationQueue: _automationQueue, server }, { onCleanup }) =>
    backendProjectsOnce(
      async (project) => {
        const key = await project.keyFor(PERMISSIONS);
        const api = projectApi(server, project, { key });
        for (const schema of [AUTHORS, POSTS]) expect((await api.call("POST", "/schemas", schema)).status).toBe(201);
        const authorIds: string[] = [];
        for (let index = 0; index < 20; index++) {
          const created = await api.call("POST", "/records/authors", { name: `Author ${index}`, handle: `author-${index}` });
          expect(created.status).toBe(201);
          authorIds.push(created.body.id as string);
        }
        return { key, api, authorIds };
      },
      { onCleanup, databaseHosts },
    ),
  );

for (const backend of importBackends(databaseHosts)) {
  describe(`records import on ${backend.name}`, () => {
    // The project is opened under the hook timeout, not the first test's.
    it.beforeAll(async ({ importProject }) => void (await importProject(backend)));

    it("imports a few hundred lines with relations and unique values, as single creates would store them", async ({ server, importProject }) => {
      const { key, api, authorIds, ...project } = await importProject(backend);
      const automation = await api.call<Body>("POST", "/automations", {
        name: "On new posts",
        trigger: { type: "record", schema: "posts", events: ["create"] },
        steps: [{ type: "transform", name: "echo", expression: "trigger.record.title" }],
      });
      expect(automation.status).toBe(201);

      const lines = Array.from({ length: 300 }, (_, index) => ({
        title: `Zoë's post ${index} 😀`,
        slug: `post-${index}`,
        views: String(index), // numeric text is coerced, as on a single create
        status: index % 3 === 0 ? "live" : "draft",
        publishedAt: "2024-05-01T10:00:00+02:00",
        contact: ` Writer${index}@Example.COM `,
        author: authorIds[index % 20],
        tags: [authorIds[(index + 1) % 20], authorIds[(index + 1) % 20]],
      }));
      // A blank line in the middle, CRLF line breaks, no line break at the end; 777-byte chunks.
      const text = `${ndjson(lines.slice(0, 150)).replaceAll("\n", "\r\n")}\r\n\r\n${ndjson(lines.slice(150))}`;
      const answer = await postImport(server.url, project.projectId, key, "posts", text, { chunkBytes: 777 });
      expect(answer).toEqual({ status: 200, body: { imported: 300, failedCount: 0, failed: [] } });

      const listed = await api.call<Body>("GET", "/records/posts?sort=createdAt&perPage=100&expand=author");
      expect(listed.status).toBe(200);
      expect(listed.body.meta).toMatchObject({ total: 300 });
      // The file's order is the default order (createdAt, then id).
      expect(listed.body.data!.slice(0, 3).map((record) => record.slug)).toEqual(["post-0", "post-1", "post-2"]);
      expect(listed.body.data![1]).toMatchObject({
        title: "Zoë's post 1 😀",
        views: 1,
        status: "draft",
        publishedAt: "2024-05-01T08:00:00.000Z",
        contact: "writer1@example.com",
        author: authorIds[1],
        tags: [authorIds[2]],
        expand: { author: { id: authorIds[1], name: "Author 1" } },
      });
      const found = await api.call<Body>("GET", "/records/posts?filter[slug]=post-299");
      expect(found.body.data).toHaveLength(1);

      // Imports emit no record events: the automation runs for the single create below only.
      const single = await api.call<Body>("POST", "/records/posts", { title: "One by one", slug: "single" });
      expect(single.status).toBe(201);
      await waitForAutomationRuns(project.projectId, automation.body.id as string, 1);
      const runs = await automationRunsAfterQuiet(project.projectId, automation.body.id as string);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ trigger: "record" });
    });

    it("answers an empty body with nothing imported", async ({ server, importProject }) => {
      const { key, ...project } = await importProject(backend);
      expect(await postImport(server.url, project.projectId, key, "posts", "")).toEqual({ status: 200, body: { imported: 0, failedCount: 0, failed: [] } });
      expect(await postImport(server.url, project.projectId, key, "posts", "\n\n  \n")).toEqual({ status: 200, body: { imported: 0, failedCount: 0, failed: [] } });
    });
  });
}
