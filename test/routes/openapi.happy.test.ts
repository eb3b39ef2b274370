import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect } from "vitest";
import type { OpenApiDocument } from "@/lib/openapi/openapi-document";
import { seedOpenApiProject } from "@/test/support/openapi-project";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/** GET /api/projects/:projectId/openapi.json for a project with every field type and endpoint option. */
const test = routeTest.extend("seeded", { scope: "file" }, async ({ ownerApi }) => {
  await seedOpenApiProject(ownerApi);
  return true;
});

describe("GET /openapi.json", () => {
  test("answers a valid OpenAPI 3.1 document of the project's schemas, auth routes and enabled endpoints", async ({ server, project, seeded }) => {
    expect(seeded).toBe(true);
    const api = projectApi(server, project, { key: await project.keyFor(["endpoints.read"]) });
    const answer = await api.call<OpenApiDocument>("GET", "/openapi.json");
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    const document = answer.body;

    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(() => validator.resolveRefs()).not.toThrow();

    expect(document.info.title).toBe("Test project API");
    expect(document.servers[0]?.url).toMatch(new RegExp(`/api/projects/${project.projectId}$`));
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        "/records/articles",
        "/records/articles/import",
        "/records/articles/{recordId}",
        "/records/authors",
        "/records/authors/import",
        "/records/authors/{recordId}",
        "/auth/members/register",
        "/auth/members/login",
        "/auth/members/verify-email",
        "/auth/members/request-password-reset",
        "/auth/members/reset-password",
        "/auth/members/me",
        "/fn/articles",
        "/fn/export",
        "/fn/feed",
        "/fn/live-articles",
        "/fn/profile",
      ].sort(),
    );
    expect(Object.keys(document.paths["/fn/profile"]!).sort()).toEqual(["delete", "put"]);
    expect(document.paths["/fn/articles"]?.post?.security).toEqual([{ apiKey: [] }]);
    expect(document.components.securitySchemes).toHaveProperty("endUser_members");
  });

  test("describes records exactly as the records API answers them", async ({ server, project, seeded }) => {
    expect(seeded).toBe(true);
    const api = projectApi(server, project, { key: await project.keyFor(["records.read", "records.create"]) });
    const document = (await api.call<OpenApiDocument>("GET", "/openapi.json")).body;
    const author = await api.call("POST", "/records/authors", { name: "Ada" });
    expect(author.status, author.text).toBe(201);
    const article = await api.call("POST", "/records/articles", {
      title: "Hello",
      author: author.body.id,
      seo: { metaTitle: "Hello" },
      blocks: [{ __component: "link", href: "https://example.com" }],
    });
    expect(article.status, article.text).toBe(201);

    const recordSchema = document.components.schemas["articles.record"] as { properties: Record<string, unknown>; required: string[] };
    const answered = Object.keys(article.body);
    expect(answered).toEqual(Object.keys(recordSchema.properties).filter((name) => name !== "expand"));
    for (const name of recordSchema.required) expect(article.body, name).toHaveProperty(name);

    // Every documented list parameter is one the list route accepts.
    const list = await api.call("GET", "/records/articles?filter[status]=draft&filter[price][gte]=0&search=Hel&sort=-createdAt,title&page=1&perPage=5&expand=author&total=false");
    expect(list.status, list.text).toBe(200);
    expect(list.body).toMatchObject({ meta: { page: 1, perPage: 5, total: null } });
    const listed = document.paths["/records/articles"]?.get?.parameters?.map((parameter) => parameter.name);
    expect(listed).toEqual(["filter", "search", "sort", "page", "perPage", "expand", "total"]);
  });

  test("follows the project: a disabled endpoint leaves the document, a new schema joins it", async ({ server, project, ownerApi, seeded }) => {
    expect(seeded).toBe(true);
    const api = projectApi(server, project, { key: await project.keyFor(["records.read"]) });
    const endpoints = await ownerApi.call<{ data: Array<{ id: string; slug: string }> }>("GET", "/endpoints");
    const export_ = endpoints.body.data.find((endpoint) => endpoint.slug === "export")!;
    expect((await ownerApi.call("PATCH", `/endpoints/${export_.id}`, { enabled: false })).status).toBe(200);
    expect((await ownerApi.call("POST", "/schemas", { name: "notes", kind: "collection", fields: [{ name: "text", type: "text" }] })).status).toBe(201);

    const document = (await api.call<OpenApiDocument>("GET", "/openapi.json")).body;
    expect(document.paths["/fn/export"]).toBeUndefined();
    expect(document.paths["/records/notes"]?.get?.operationId).toBe("listRecords_notes");
    expect(document.paths["/fn/articles"]).toBeDefined();
  });

  test("serves the dashboard session of a member", async ({ ownerApi, seeded }) => {
    expect(seeded).toBe(true);
    const answer = await ownerApi.call<OpenApiDocument>("GET", "/openapi.json");
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe("3.1.0");
  });
});
