import { randomBytes } from "node:crypto";
import { describe, expect } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { backendProjectsOnce, projectBackends, type BackendProject } from "@/test/support/backend-projects";
import { createDatabaseHostAllowance } from "@/test/support/database-host-allowance";
import { projectApi, type ApiAnswer, type ApiBody, type ProjectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * The records API contract over real HTTP, run against every customer database backend in this
 * run: the embedded PGlite store always, a fresh PostgreSQL database when DATABASE_URL is set, a
 * fresh MongoDB database when MONGODB_URL is set. Every filter operator, search, sort, pagination,
 * expansion (and its query count), every validation rule and the unique race.
 */

type Json = Record<string, unknown>;
/** A list answer's body. */
type Listing = ApiBody & { data?: Json[]; meta?: Json };

const ALL_RECORD_PERMISSIONS: Permission[] = ["records.read", "records.create", "records.update", "records.delete", "schemas.read", "schemas.write"];

const databaseHosts = createDatabaseHostAllowance();
/** Every customer database backend of this run (test/support/backend-projects.ts). */
const BACKENDS = projectBackends({ label: "Contract", databaseLabel: "records_api", databaseHosts });

const COMPONENTS = [
  {
    name: "seo",
    kind: "component",
    fields: [
      { name: "metaTitle", type: "string", required: true, max: 60 },
      { name: "keywords", type: "string" },
    ],
  },
  {
    name: "hero",
    kind: "component",
    fields: [
      { name: "heading", type: "string", required: true },
      { name: "cta", type: "url" },
    ],
  },
  {
    name: "quote",
    kind: "component",
    fields: [
      { name: "text", type: "text", required: true },
      { name: "by", type: "relation", target: "authors" },
    ],
  },
];

function postFields(): Json[] {
  return [
    { name: "title", type: "string", required: true, min: 3, max: 80 },
    { name: "slug", type: "string", unique: true, pattern: "^[a-z0-9-]+$", max: 100 },
    { name: "body", type: "text" },
    { name: "summary", type: "richtext" },
    { name: "views", type: "integer", min: 0, max: 1_000_000 },
    { name: "rating", type: "number", min: 0, max: 5 },
    { name: "published", type: "boolean", default: false },
    { name: "publishedAt", type: "datetime", min: "2000-01-01T00:00:00Z" },
    { name: "contact", type: "email" },
    { name: "website", type: "url" },
    { name: "status", type: "enum", values: ["draft", "review", "live"], default: "draft" },
    { name: "meta", type: "json" },
    { name: "author", type: "relation", target: "authors" },
    { name: "tags", type: "relation", target: "tags", many: true, max: 3 },
    { name: "seo", type: "component", component: "seo" },
    { name: "gallery", type: "component", component: "hero", repeatable: true, max: 2 },
    { name: "blocks", type: "dynamic_zone", components: ["hero", "quote"] },
  ];
}

/** The contract's schemas, two authors, four tags and six posts (by slug), made through `api`. */
async function seedContract(api: ProjectApi) {
  const authors: Record<string, string> = {};
  const tags: Record<string, string> = {};
  const posts: Record<string, Json> = {};
  for (const definition of [
    {
      name: "authors",
      kind: "collection",
      fields: [
        { name: "name", type: "string", required: true },
        { name: "email", type: "email", unique: true },
      ],
    },
    { name: "tags", kind: "collection", fields: [{ name: "label", type: "string", required: true, unique: true }] },
    ...COMPONENTS,
    { name: "posts", kind: "collection", fields: postFields() },
    { name: "drafts", kind: "collection", fields: postFields() },
    {
      name: "feed",
      kind: "collection",
      fields: [
        { name: "title", type: "string" },
        { name: "author", type: "relation", target: "authors" },
        { name: "tags", type: "relation", target: "tags", many: true },
      ],
    },
    {
      name: "uploads",
      kind: "collection",
      fields: [
        { name: "title", type: "string", unique: true },
        { name: "file", type: "file" },
      ],
    },
  ]) {
    const created = await api.call("POST", "/schemas", definition);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  for (const [handle, name] of [
    ["ada", "Ada"],
    ["bob", "Bob"],
  ] as const) {
    const created = await api.call("POST", "/records/authors", { name, email: `${handle}@Example.com` });
    expect(created.status).toBe(201);
    authors[handle] = created.body.id as string;
  }
  for (const label of ["news", "tech", "life", "misc"]) {
    tags[label] = (await api.call("POST", "/records/tags", { label })).body.id as string;
  }
  const seed: Record<string, Json> = {
    alpha: {
      title: "Alpha launch",
      views: 10,
      rating: 4.5,
      published: true,
      publishedAt: "2024-01-10T00:00:00Z",
      status: "live",
      author: authors.ada,
      tags: [tags.news, tags.tech],
      body: "first body with a Needle inside",
      contact: "one@example.com",
    },
    beta: { title: "Beta notes", views: 20, rating: 3, published: false, publishedAt: "2024-02-10T00:00:00Z", status: "draft", author: authors.bob, tags: [tags.tech] },
    gamma: { title: "Gamma ray", views: 30, rating: 2.5, published: true, publishedAt: "2024-03-10T00:00:00Z", status: "review", author: authors.ada },
    delta: { title: "delta NEEDLE", views: 40, rating: 1, published: false, publishedAt: "2024-04-10T00:00:00Z", status: "live", summary: "<p>rich summary</p>" },
    epsilon: {
      title: "Epsilon",
      views: 50,
      rating: 5,
      published: true,
      publishedAt: "2024-05-10T12:30:00+02:00",
      status: "draft",
      author: authors.bob,
      website: "https://eps.example/page",
    },
    zeta: { title: "Zeta", views: 0, rating: 0 },
  };
  for (const [slug, values] of Object.entries(seed)) {
    const created = await api.call("POST", "/records/posts", { slug, ...values });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    posts[slug] = created.body;
  }
  return { authors, tags, posts };
}

const it = routeTest
  /**
   * The project of each backend, opened and seeded on first use, with `client()`: a client with a
   * fresh key, since the management rate limit counts per key and a contract makes many calls.
   * Removed when the file ends.
   */
  .extend("contractProject", { scope: "file" }, ({ server }, { onCleanup }) =>
    backendProjectsOnce(
      async (project) => {
        const client = async () => projectApi(server, project, { key: await project.keyFor(ALL_RECORD_PERMISSIONS) });
        return { client, ...(await seedContract(await client())) };
      },
      { onCleanup, databaseHosts },
    ),
  );

const slugsOf = (answer: ApiAnswer<Listing>) => (answer.body.data ?? []).map((record) => record.slug as string);

function registerRecordsApiContract(backend: { name: string; open: () => Promise<BackendProject> }): void {
  describe(`records API contract on ${backend.name}`, () => {
    // The project is opened and seeded under the hook timeout, not the first test's.
    it.beforeAll(async ({ contractProject }) => void (await contractProject(backend)));

    it("creates (201 with system fields and defaults), reads, updates and deletes a record", async ({ contractProject }) => {
      const { client, projectId } = await contractProject(backend);
      const api = await client();
      const created = await api.call("POST", "/records/drafts", { title: "First draft", slug: "first-draft", views: "12", published: "true" });
      expect(created.status).toBe(201);
      const record = created.body;
      expect(record.id).toMatch(/^rec_[0-9a-z]{26}$/);
      expect(created.headers.get("location")).toBe(`/api/projects/${projectId}/records/drafts/${record.id as string}`);
      expect(record).toMatchObject({
        title: "First draft",
        slug: "first-draft",
        views: 12,
        published: true,
        status: "draft",
        body: null,
        tags: [],
        gallery: [],
        blocks: [],
        author: null,
      });
      expect(Date.parse(record.createdAt as string)).not.toBeNaN();
      expect(record.updatedAt).toBe(record.createdAt);
      expect(Object.keys(record)[0]).toBe("id");
      expect(Object.keys(record).slice(-2)).toEqual(["createdAt", "updatedAt"]);

      const read = await api.call("GET", `/records/drafts/${record.id as string}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(record);

      await new Promise((resolve) => setTimeout(resolve, 5));
      const updated = await api.call("PATCH", `/records/drafts/${record.id as string}`, { views: 13, status: "review" });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ id: record.id, title: "First draft", slug: "first-draft", views: 13, status: "review", published: true, createdAt: record.createdAt });
      expect(Date.parse(updated.body.updatedAt as string)).toBeGreaterThan(Date.parse(record.createdAt as string));

      const deleted = await api.call("DELETE", `/records/drafts/${record.id as string}`);
      expect(deleted.status).toBe(204);
      expect((await api.call("GET", `/records/drafts/${record.id as string}`)).status).toBe(404);
      expect((await api.call("PATCH", `/records/drafts/${record.id as string}`, { views: 1 })).status).toBe(404);
      expect((await api.call("DELETE", `/records/drafts/${record.id as string}`)).status).toBe(404);
    });

    it("filters by equality, with and without [eq], and with ne", async ({ contractProject }) => {
      const { client } = await contractProject(backend);
      const api = await client();
      expect(slugsOf(await api.call("GET", "/records/posts?filter[title]=Gamma%20ray"))).toEqual(["gamma"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[title][eq]=Gamma%20ray"))).toEqual(["gamma"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[title]=gamma%20ray"))).toEqual([]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[views]=30"))).toEqual(["gamma"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[rating][eq]=4.5"))).toEqual(["alpha"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[contact]=ONE@example.com"))).toEqual(["alpha"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[publishedAt]=2024-05-10T10:30:00Z"))).toEqual(["epsilon"]);
      const notDraft = await api.call("GET", "/records/posts?filter[status][ne]=draft&sort=slug");
      expect(slugsOf(notDraft)).toEqual(["alpha", "delta", "gamma"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[views][ne]=0&sort=views"))).toEqual(["alpha", "beta", "gamma", "delta", "epsilon"]);
    });

    it("filters with gt, gte, lt and lte on integers, numbers, date-times and createdAt", async ({ contractProject }) => {
      const { client, posts } = await contractProject(backend);
      const api = await client();
      const bySlug = "&sort=slug";
      expect(slugsOf(await api.call("GET", `/records/posts?filter[views][gt]=30${bySlug}`))).toEqual(["delta", "epsilon"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[views][gte]=30${bySlug}`))).toEqual(["delta", "epsilon", "gamma"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[views][lt]=20${bySlug}`))).toEqual(["alpha", "zeta"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[views][lte]=20${bySlug}`))).toEqual(["alpha", "beta", "zeta"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[rating][gt]=2.75${bySlug}`))).toEqual(["alpha", "beta", "epsilon"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[views][gt]=15.5&filter[views][lt]=45${bySlug}`))).toEqual(["beta", "delta", "gamma"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[publishedAt][gte]=2024-03-10${bySlug}`))).toEqual(["delta", "epsilon", "gamma"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[publishedAt][lt]=2024-02-10T00:00:00%2B00:00${bySlug}`))).toEqual(["alpha"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[publishedAt][lte]=2024-02-10T00:00:00Z${bySlug}`))).toEqual(["alpha", "beta"]);

      const gamma = posts.gamma!;
      const after = await api.call("GET", `/records/posts?filter[createdAt][gt]=${encodeURIComponent(gamma.createdAt as string)}${bySlug}`);
      const expected = Object.values(posts)
        .filter((post) => (post.createdAt as string) > (gamma.createdAt as string))
        .map((post) => post.slug as string)
        .sort();
      expect(slugsOf(after)).toEqual(expected);
      const upTo = await api.call("GET", `/records/posts?filter[createdAt][lte]=${encodeURIComponent(gamma.createdAt as string)}${bySlug}`);
      expect(slugsOf(upTo).length + expected.length).toBe(6);
    });

    it("filters with in and contains", async ({ contractProject }) => {
      const { client, posts } = await contractProject(backend);
      const api = await client();
      expect(slugsOf(await api.call("GET", "/records/posts?filter[status][in]=review,live&sort=slug"))).toEqual(["alpha", "delta", "gamma"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[views][in]=0,50,999&sort=slug"))).toEqual(["epsilon", "zeta"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[slug][in]=beta,nothing&sort=slug`))).toEqual(["beta"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[id][in]=${posts.alpha!.id as string},${posts.zeta!.id as string}&sort=slug`))).toEqual(["alpha", "zeta"]);
      // contains is a case-insensitive substring match, with LIKE wildcards taken literally.
      expect(slugsOf(await api.call("GET", "/records/posts?filter[title][contains]=needle"))).toEqual(["delta"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[title][contains]=A&sort=slug"))).toEqual(["alpha", "beta", "delta", "gamma", "zeta"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[title][contains]=%25"))).toEqual([]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[title][contains]=_"))).toEqual([]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[summary][contains]=RICH"))).toEqual(["delta"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[website][contains]=eps.example"))).toEqual(["epsilon"]);
    });

    it("filters booleans, enums, relations and ids, and combines conditions with AND", async ({ contractProject }) => {
      const { client, authors, posts } = await contractProject(backend);
      const api = await client();
      expect(slugsOf(await api.call("GET", "/records/posts?filter[published]=true&sort=slug"))).toEqual(["alpha", "epsilon", "gamma"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[published][ne]=true&sort=slug"))).toEqual(["beta", "delta", "zeta"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[status]=draft&sort=slug"))).toEqual(["beta", "epsilon", "zeta"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[author]=${authors.ada!}&sort=slug`))).toEqual(["alpha", "gamma"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[author][in]=${authors.ada!},${authors.bob!}&filter[published]=false`))).toEqual(["beta"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[id]=${posts.delta!.id as string}`))).toEqual(["delta"]);
      expect(slugsOf(await api.call("GET", `/records/posts?filter[id][ne]=${posts.delta!.id as string}&filter[status]=live`))).toEqual(["alpha"]);
      expect(slugsOf(await api.call("GET", "/records/posts?filter[status]=draft&filter[views][gte]=20&filter[title][contains]=e&sort=slug"))).toEqual(["beta", "epsilon"]);
    });

    it("searches the text fields case-insensitively and combines search with filters", async ({ contractProject }) => {
      const { client } = await contractProject(backend);
      const api = await client();
      expect(slugsOf(await api.call("GET", "/records/posts?search=NEEDLE&sort=slug"))).toEqual(["alpha", "delta"]);
      expect(slugsOf(await api.call("GET", "/records/posts?search=rich%20summary"))).toEqual(["delta"]);
      expect(slugsOf(await api.call("GET", "/records/posts?search=eps.example"))).toEqual(["epsilon"]);
      expect(slugsOf(await api.call("GET", "/records/posts?search=needle&filter[published]=true"))).toEqual(["alpha"]);
      const counted = await api.call("GET", "/records/posts?search=needle");
      expect(counted.body.meta).toEqual({ page: 1, perPage: 20, total: 2 });
      expect(slugsOf(await api.call("GET", "/records/posts?search=%25"))).toEqual([]);
      expect(slugsOf(await api.call("GET", "/records/posts?search=%20%20&sort=slug"))).toHaveLength(6);
    });

    it("sorts by one or more fields in both directions, newest first by default", async ({ contractProject }) => {
      const { client, posts } = await contractProject(backend);
      const api = await client();
      expect(slugsOf(await api.call("GET", "/records/posts?sort=views"))).toEqual(["zeta", "alpha", "beta", "gamma", "delta", "epsilon"]);
      expect(slugsOf(await api.call("GET", "/records/posts?sort=-rating"))).toEqual(["epsilon", "alpha", "beta", "gamma", "delta", "zeta"]);
      expect(slugsOf(await api.call("GET", "/records/posts?sort=status,-views"))).toEqual(["epsilon", "beta", "zeta", "delta", "alpha", "gamma"]);
      expect(slugsOf(await api.call("GET", "/records/posts?sort=-published,title"))).toEqual(["alpha", "epsilon", "gamma", "beta", "zeta", "delta"]);
      const defaultOrder = await api.call("GET", "/records/posts");
      const expected = Object.values(posts)
        .sort((a, b) => (b.createdAt as string).localeCompare(a.createdAt as string) || (b.id as string).localeCompare(a.id as string))
        .map((post) => post.slug);
      expect(slugsOf(defaultOrder)).toEqual(expected);
      const ascending = await api.call("GET", "/records/posts?sort=createdAt");
      expect(slugsOf(ascending)).toEqual([...expected].reverse());
      const byPublishedAt = await api.call("GET", "/records/posts?sort=publishedAt&filter[publishedAt][gte]=2000-01-01");
      expect(slugsOf(byPublishedAt)).toEqual(["alpha", "beta", "gamma", "delta", "epsilon"]);
    });

    it("orders text by code point and numbers numerically", async ({ contractProject }) => {
      const { client } = await contractProject(backend);
      const api = await client();
      // "delta NEEDLE" starts lowercase: it sorts after every capitalized title in code-point order.
      expect(slugsOf(await api.call("GET", "/records/posts?sort=title"))).toEqual(["alpha", "beta", "epsilon", "gamma", "zeta", "delta"]);
      expect(slugsOf(await api.call("GET", "/records/posts?sort=-title"))).toEqual(["delta", "zeta", "gamma", "epsilon", "beta", "alpha"]);
    });

    it("pages with page and perPage, counts the total unless total=false", async ({ contractProject }) => {
      const { client } = await contractProject(backend);
      const api = await client();
      const first = await api.call("GET", "/records/posts?sort=views&perPage=4");
      expect(first.body.meta).toEqual({ page: 1, perPage: 4, total: 6 });
      expect(slugsOf(first)).toEqual(["zeta", "alpha", "beta", "gamma"]);
      const second = await api.call("GET", "/records/posts?sort=views&perPage=4&page=2");
      expect(second.body.meta).toEqual({ page: 2, perPage: 4, total: 6 });
      expect(slugsOf(second)).toEqual(["delta", "epsilon"]);
      const beyond = await api.call("GET", "/records/posts?sort=views&perPage=4&page=3");
      expect(beyond.body).toEqual({ data: [], meta: { page: 3, perPage: 4, total: 6 } });
      const uncounted = await api.call("GET", "/records/posts?sort=views&perPage=2&page=2&total=false");
      expect(uncounted.body.meta).toEqual({ page: 2, perPage: 2, total: null });
      expect(slugsOf(uncounted)).toEqual(["beta", "gamma"]);
      const filteredTotal = await api.call("GET", "/records/posts?filter[published]=true&perPage=1");
      expect(filteredTotal.body.meta).toEqual({ page: 1, perPage: 1, total: 3 });
      expect((await api.call("GET", "/records/posts?perPage=100")).status).toBe(200);
      const tooMany = await api.call("GET", "/records/posts?perPage=101");
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.issues).toEqual([{ path: "perPage", message: "must be a whole number from 1 to 100" }]);
      // Offsets stay bounded: a page may start at most 10,000 records in.
      expect((await api.call("GET", "/records/posts?perPage=100&page=101")).status).toBe(200);
      const tooDeep = await api.call("GET", "/records/posts?perPage=100&page=102");
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.issues).toEqual([{ path: "page", message: expect.stringContaining("sort=id&filter[id][gt]=") }]);
      // Pages walked with a tie in the sort key never repeat or skip a record.
      const walked: string[] = [];
      for (let page = 1; page <= 3; page++) walked.push(...slugsOf(await api.call("GET", `/records/posts?sort=published&perPage=2&page=${page}`)));
      expect([...walked].sort()).toEqual(["alpha", "beta", "delta", "epsilon", "gamma", "zeta"]);
    });

    it("expands relations under expand.<field> on lists and single records", async ({ contractProject }) => {
      const { client, authors, tags, posts } = await contractProject(backend);
      const api = await client();
      const list = await api.call<Listing>("GET", "/records/posts?expand=author,tags&sort=slug&filter[slug][in]=alpha,delta,epsilon");
      expect(list.status).toBe(200);
      const [alpha, delta, epsilon] = list.body.data!;
      expect(alpha!.author).toBe(authors.ada);
      expect(alpha!.expand).toEqual({
        author: expect.objectContaining({ id: authors.ada, name: "Ada", email: "ada@example.com" }),
        tags: [expect.objectContaining({ id: tags.news, label: "news" }), expect.objectContaining({ id: tags.tech, label: "tech" })],
      });
      expect(delta!.expand).toEqual({ author: null, tags: [] });
      expect((epsilon!.expand as Json).author).toMatchObject({ name: "Bob" });
      // Without expand nothing is added.
      expect((await api.call<Listing>("GET", "/records/posts?perPage=1")).body.data![0]).not.toHaveProperty("expand");

      const single = await api.call("GET", `/records/posts/${posts.alpha!.id as string}?expand=tags`);
      expect(single.status).toBe(200);
      expect(single.body.expand).toEqual({ tags: [expect.objectContaining({ label: "news" }), expect.objectContaining({ label: "tech" })] });

      // A related record that is gone reads as null (single) or is left out (many).
      const writer = await api.call("POST", "/records/authors", { name: "Temporary" });
      const tag = await api.call("POST", "/records/tags", { label: "temporary" });
      const post = await api.call("POST", "/records/feed", { title: "orphan", author: writer.body.id, tags: [tag.body.id, tags.misc] });
      expect((await api.call("DELETE", `/records/authors/${writer.body.id as string}`)).status).toBe(204);
      expect((await api.call("DELETE", `/records/tags/${tag.body.id as string}`)).status).toBe(204);
      const orphan = await api.call("GET", `/records/feed/${post.body.id as string}?expand=author,tags`);
      expect(orphan.body.author).toBe(writer.body.id);
      expect(orphan.body.expand).toEqual({ author: null, tags: [expect.objectContaining({ label: "misc" })] });
      expect((await api.call("DELETE", `/records/feed/${post.body.id as string}`)).status).toBe(204);
    });

    it("expands with one query per relation: the query count does not grow with the page size", async ({ contractProject }) => {
      const { client, authors, tags, projectId } = await contractProject(backend);
      const api = await client();
      const labels = Object.keys(tags);
      for (let index = 0; index < 50; index++) {
        const created = await api.call("POST", "/records/feed", {
          title: `item ${index}`,
          author: index % 2 === 0 ? authors.ada : authors.bob,
          tags: [tags[labels[index % labels.length]!], tags[labels[(index + 1) % labels.length]!]],
        });
        expect(created.status).toBe(201);
      }
      const store = await getProjectRecordStore({ projectId: projectId });
      const queriesFor = async (pathname: string) => {
        const before = store.metrics.queries;
        const answer = await api.call<Listing>("GET", pathname);
        expect(answer.status).toBe(200);
        return { queries: store.metrics.queries - before, answer };
      };
      const small = await queriesFor("/records/feed?perPage=5&expand=author,tags");
      const large = await queriesFor("/records/feed?perPage=50&expand=author,tags");
      expect(small.answer.body.data).toHaveLength(5);
      expect(large.answer.body.data).toHaveLength(50);
      expect(large.answer.body.data!.every((record) => (record.expand as Json).author !== null && ((record.expand as Json).tags as Json[]).length === 2)).toBe(true);
      expect(large.queries).toBe(small.queries);
      const plain = await queriesFor("/records/feed?perPage=50");
      // The page, the count, and one query per expanded relation.
      expect(plain.queries).toBe(2);
      expect(large.queries).toBe(plain.queries + 2);
      const uncounted = await queriesFor("/records/feed?perPage=50&total=false&expand=author");
      expect(uncounted.queries).toBe(2);
    });

    it("enforces required fields on create and refuses clearing them on update", async ({ contractProject }) => {
      const { client } = await contractProject(backend);
      const api = await client();
      for (const body of [{}, { title: null }, { title: "" }, { slug: "no-title" }]) {
        const answer = await api.call("POST", "/records/drafts", body);
        expect(answer.status, JSON.stringify(body)).toBe(422);
        expect(answer.body.issues).toContainEqual({ path: "title", message: "is required" });
      }
      const created = await api.call("POST", "/records/drafts", { title: "Keeps its title" });
      for (const patch of [{ title: null }, { title: "" }]) {
        const answer = await api.call("PATCH", `/records/drafts/${created.body.id as string}`, patch);
        expect(answer.status).toBe(422);
        expect(answer.body.issues).toEqual([{ path: "title", message: "is required" }]);
      }
      // PATCH checks only what it is given.
      const partial = await api.call("PATCH", `/records/drafts/${created.body.id as string}`, { body: "new body" });
      expect(partial.status).toBe(200);
      expect(partial.body).toMatchObject({ title: "Keeps its title", body: "new body" });
    });

    it("enforces types, with unambiguous text coerced", async ({ contractProject }) => {
      const { client, authors, tags } = await contractProject(backend);
      const api = await client();
      const cases: Array<[Json, string, string]> = [
        [{ title: 42 }, "title", "must be a string"],
        [{ views: "abc" }, "views", "must be an integer"],
        [{ views: 1.5 }, "views", "must be an integer"],
        [{ views: "7.0" }, "views", "must be an integer"],
        [{ rating: "4,5" }, "rating", "must be a number"],
        [{ rating: true }, "rating", "must be a number"],
        [{ published: "yes" }, "published", "must be true or false"],
        [{ published: 1 }, "published", "must be true or false"],
        [{ publishedAt: "2024-01-01T10:00" }, "publishedAt", "must be an ISO 8601 date-time with a time zone, such as 2025-01-31T12:00:00Z"],
        [{ publishedAt: "2024-02-30" }, "publishedAt", "must be an ISO 8601 date-time with a time zone, such as 2025-01-31T12:00:00Z"],
        [{ contact: "not-an-email" }, "contact", "must be an email address"],
        [{ website: "javascript:alert(1)" }, "website", "must be an http or https URL"],
        [{ website: "ftp://example.com/file" }, "website", "must be an http or https URL"],
        [{ author: { id: "x" } }, "author", 'must be a record id (a string of letters, digits, "_" or "-", at most 128 characters)'],
        [{ tags: "not a/list" }, "tags.0", 'must be a record id (a string of letters, digits, "_" or "-", at most 128 characters)'],
        [{ seo: "text" }, "seo", "must be an object"],
        [{ gallery: { heading: "x" } }, "gallery", "must be a list of objects"],
        [{ blocks: "x" }, "blocks", "must be a list of objects, each naming its component in __component"],
      ];
      for (const [values, issuePath, message] of cases) {
        const answer = await api.call("POST", "/records/drafts", { title: "Typed", ...values });
        expect(answer.status, JSON.stringify(values)).toBe(422);
        expect(answer.body.issues, JSON.stringify(values)).toEqual([{ path: issuePath, message }]);
      }
      const coerced = await api.call("POST", "/records/drafts", {
        title: "Coerced",
        views: "42",
        rating: "-0",
        published: "false",
        publishedAt: "2024-06-01T12:00:00+02:00",
        contact: "  Mixed@Example.COM ",
        website: " https://example.com/a ",
        meta: { nested: [1, { deep: true }] },
        author: authors.ada,
        tags: tags.news,
      });
      expect(coerced.status, JSON.stringify(coerced.body)).toBe(201);
      expect(coerced.body).toMatchObject({
        views: 42,
        rating: 0,
        published: false,
        publishedAt: "2024-06-01T10:00:00.000Z",
        contact: "mixed@example.com",
        website: "https://example.com/a",
        meta: { nested: [1, { deep: true }] },
        tags: [tags.news],
      });
      // Numbers never become strings.
      expect((await api.call("POST", "/records/drafts", { title: "Number title", body: 5 })).status).toBe(422);
    });

    it("enforces enum values, min, max and pattern", async ({ contractProject }) => {
      const { client, tags } = await contractProject(backend);
      const api = await client();
      const cases: Array<[Json, string, string]> = [
        [{ status: "archived" }, "status", 'must be one of "draft", "review", "live"'],
        [{ status: "LIVE" }, "status", 'must be one of "draft", "review", "live"'],
        [{ title: "ab" }, "title", "must be at least 3 characters"],
        [{ title: "x".repeat(81) }, "title", "must be at most 80 characters"],
        [{ views: -1 }, "views", "must be at least 0"],
        [{ views: 1_000_001 }, "views", "must be at most 1000000"],
        [{ rating: 5.01 }, "rating", "must be at most 5"],
        [{ publishedAt: "1999-12-31T23:59:59Z" }, "publishedAt", "must not be before 2000-01-01T00:00:00.000Z"],
        [{ slug: "Not Valid" }, "slug", "must match the pattern ^[a-z0-9-]+$"],
        [{ tags: [tags.news, tags.tech, tags.life, tags.misc] }, "tags", "must have at most 3 related records"],
        [{ gallery: [{ heading: "a" }, { heading: "b" }, { heading: "c" }] }, "gallery", "must have at most 2 items"],
        [{ seo: { metaTitle: "m".repeat(61) } }, "seo.metaTitle", "must be at most 60 characters"],
      ];
      for (const [values, issuePath, message] of cases) {
        const answer = await api.call("POST", "/records/drafts", { title: "Bounded", ...values });
        expect(answer.status, JSON.stringify(values).slice(0, 100)).toBe(422);
        expect(answer.body.issues, JSON.stringify(values).slice(0, 100)).toEqual([{ path: issuePath, message }]);
      }
      // Several problems are answered together.
      const many = await api.call("POST", "/records/drafts", { title: "ab", views: -5, status: "nope" });
      expect(many.body.issues!.map((issue) => issue.path)).toEqual(["title", "views", "status"]);
      // The same rules on update.
      const created = await api.call("POST", "/records/drafts", { title: "Bounded ok", slug: "bounded-ok" });
      const patched = await api.call("PATCH", `/records/drafts/${created.body.id as string}`, { slug: "UPPER" });
      expect(patched.status).toBe(422);
      expect(patched.body.issues).toEqual([{ path: "slug", message: "must match the pattern ^[a-z0-9-]+$" }]);
    });

    it("rejects unknown fields, system fields and keys that start with $ or contain a dot, at any depth", async ({ contractProject }) => {
      const { client } = await contractProject(backend);
      const api = await client();
      const cases: Array<[Json, string]> = [
        [{ colour: "red" }, "colour"],
        [{ id: "rec_chosen" }, "id"],
        [{ createdAt: "2020-01-01T00:00:00Z" }, "createdAt"],
        [{ updatedAt: "2020-01-01T00:00:00Z" }, "updatedAt"],
        [{ expand: {} }, "expand"],
        [{ $set: { title: "x" } }, "$set"],
        [{ "title.x": "y" }, "title.x"],
        [{ meta: { $gt: 1 } }, "meta.$gt"],
        [{ meta: { list: [{ "a.b": 1 }] } }, "meta.list.0.a.b"],
        [{ seo: { metaTitle: "ok", $where: "1" } }, "seo.$where"],
        [{ seo: { metaTitle: "ok", extra: 1 } }, "seo.extra"],
        [{ blocks: [{ __component: "hero", heading: "h", "x.y": 1 }] }, "blocks.0.x.y"],
      ];
      for (const [values, issuePath] of cases) {
        const answer = await api.call("POST", "/records/drafts", { title: "Unknown", ...values });
        expect(answer.status, JSON.stringify(values)).toBe(422);
        expect(
          answer.body.issues!.map((issue) => issue.path),
          JSON.stringify(values),
        ).toEqual([issuePath]);
      }
      const system = await api.call("POST", "/records/drafts", { title: "System", id: "rec_x" });
      expect(system.body.issues).toEqual([{ path: "id", message: '"id" is set by the server and cannot be written' }]);
      const existing = await api.call("POST", "/records/drafts", { title: "Patch unknown" });
      const patch = await api.call("PATCH", `/records/drafts/${existing.body.id as string}`, { colour: "red", $inc: { views: 1 } });
      expect(patch.status).toBe(422);
      expect(patch.body.issues!.map((issue) => issue.path)).toEqual(["colour", "$inc"]);
      for (const body of ["[1,2]", '"text"', "null", "42"]) {
        const answer = await api.call("POST", "/records/drafts", body);
        expect(answer.status, body).toBe(422);
        expect(answer.body.issues).toEqual([{ path: "", message: "must be a JSON object" }]);
      }
    });

    it("validates components and dynamic zones recursively", async ({ contractProject }) => {
      const { client, authors } = await contractProject(backend);
      const api = await client();
      const missingNested = await api.call("POST", "/records/drafts", { title: "Nested", seo: { keywords: "k" } });
      expect(missingNested.status).toBe(422);
      expect(missingNested.body.issues).toEqual([{ path: "seo.metaTitle", message: "is required" }]);
      const galleryItem = await api.call("POST", "/records/drafts", { title: "Nested", gallery: [{ heading: "ok" }, { heading: "bad link", cta: "javascript:x" }] });
      expect(galleryItem.body.issues).toEqual([{ path: "gallery.1.cta", message: "must be an http or https URL" }]);
      const zones = await api.call("POST", "/records/drafts", {
        title: "Zones",
        blocks: [{ __component: "hero" }, { __component: "seo", metaTitle: "x" }, { text: "no component" }, "not an object", { __component: "quote", text: "q", by: 5 }],
      });
      expect(zones.status).toBe(422);
      expect(zones.body.issues).toEqual([
        { path: "blocks.0.heading", message: "is required" },
        { path: "blocks.1.__component", message: 'must be one of "hero", "quote"' },
        { path: "blocks.2.__component", message: 'must be one of "hero", "quote"' },
        { path: "blocks.3", message: "must be an object naming its component in __component" },
        { path: "blocks.4.by", message: 'must be a record id (a string of letters, digits, "_" or "-", at most 128 characters)' },
      ]);
      const valid = await api.call("POST", "/records/drafts", {
        title: "Zones ok",
        seo: { metaTitle: "Meta" },
        gallery: [{ heading: "One", cta: "https://example.com" }],
        blocks: [
          { __component: "quote", text: "Well said", by: authors.bob },
          { __component: "hero", heading: "Big" },
        ],
      });
      expect(valid.status, JSON.stringify(valid.body)).toBe(201);
      expect(valid.body.blocks).toEqual([
        { __component: "quote", text: "Well said", by: authors.bob },
        { __component: "hero", heading: "Big", cta: null },
      ]);
      expect(valid.body.seo).toEqual({ metaTitle: "Meta", keywords: null });
      // A component given on update replaces the old value whole, so its rules apply in full.
      const replaced = await api.call("PATCH", `/records/drafts/${valid.body.id as string}`, { seo: { keywords: "only" } });
      expect(replaced.body.issues).toEqual([{ path: "seo.metaTitle", message: "is required" }]);
    });

    it("answers 422 naming the field and the missing id when a related record does not exist, at any depth", async ({ contractProject }) => {
      const { client, authors, tags } = await contractProject(backend);
      const api = await client();
      const missingAuthor = await api.call("POST", "/records/drafts", { title: "Related", author: "rec_missing" });
      expect(missingAuthor.status).toBe(422);
      expect(missingAuthor.body.issues).toEqual([{ path: "author", message: 'no authors record has the id "rec_missing"' }]);
      expect(missingAuthor.body.field).toBe("author");
      const missingTag = await api.call("POST", "/records/drafts", { title: "Related", tags: [tags.news, "tag_gone"] });
      expect(missingTag.body.issues).toEqual([{ path: "tags.1", message: 'no tags record has the id "tag_gone"' }]);
      // An id of the wrong schema does not count.
      const wrongSchema = await api.call("POST", "/records/drafts", { title: "Related", author: tags.news });
      expect(wrongSchema.status).toBe(422);
      const nested = await api.call("POST", "/records/drafts", { title: "Related", blocks: [{ __component: "quote", text: "q", by: "rec_ghost" }] });
      expect(nested.body.issues).toEqual([{ path: "blocks.0.by", message: 'no authors record has the id "rec_ghost"' }]);
      const created = await api.call("POST", "/records/drafts", { title: "Related ok", author: authors.ada });
      const patched = await api.call("PATCH", `/records/drafts/${created.body.id as string}`, { author: "rec_nobody" });
      expect(patched.status).toBe(422);
      expect(patched.body.issues).toEqual([{ path: "author", message: 'no authors record has the id "rec_nobody"' }]);
      expect((await api.call("GET", `/records/drafts/${created.body.id as string}`)).body.author).toBe(authors.ada);
    });

    it("answers 409 naming the field for a taken unique value, on create and on update", async ({ contractProject }) => {
      const { client } = await contractProject(backend);
      const api = await client();
      const first = await api.call("POST", "/records/drafts", { title: "Unique one", slug: "taken-slug" });
      expect(first.status).toBe(201);
      const duplicate = await api.call("POST", "/records/drafts", { title: "Unique two", slug: "taken-slug" });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({ field: "slug", issues: [{ path: "slug", message: "must be unique: another record already has this value" }] });
      expect(duplicate.body.error).toContain("slug");
      const other = await api.call("POST", "/records/drafts", { title: "Unique three", slug: "free-slug" });
      const patched = await api.call("PATCH", `/records/drafts/${other.body.id as string}`, { slug: "taken-slug" });
      expect(patched.status).toBe(409);
      expect(patched.body.field).toBe("slug");
      // Emails are unique case-insensitively (stored lowercased).
      const email = await api.call("POST", "/records/authors", { name: "Ada again", email: "ADA@example.com" });
      expect(email.status).toBe(409);
      expect(email.body.field).toBe("email");
      // Absent values are not constrained.
      expect((await api.call("POST", "/records/drafts", { title: "No slug 1" })).status).toBe(201);
      expect((await api.call("POST", "/records/drafts", { title: "No slug 2" })).status).toBe(201);
      // Updating a record to its own value is not a conflict.
      expect((await api.call("PATCH", `/records/drafts/${first.body.id as string}`, { slug: "taken-slug" })).status).toBe(200);
    });

    it("lets exactly one of concurrent writers take a unique value", async ({ contractProject }) => {
      const { client } = await contractProject(backend);
      const api = await client();
      const attempts = await Promise.all(Array.from({ length: 8 }, (_, index) => api.call("POST", "/records/drafts", { title: `Racer ${index}`, slug: "race-slug" })));
      const statuses = attempts.map((answer) => answer.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      for (const loser of attempts.filter((answer) => answer.status === 409)) expect(loser.body.field).toBe("slug");
      const stored = await api.call<Listing>("GET", "/records/drafts?filter[slug]=race-slug");
      expect(stored.body.meta!.total).toBe(1);

      // The same race through updates of different records.
      const racers = await Promise.all(Array.from({ length: 6 }, (_, index) => api.call("POST", "/records/drafts", { title: `Updater ${index}` })));
      const updates = await Promise.all(racers.map((racer) => api.call("PATCH", `/records/drafts/${racer.body.id as string}`, { slug: "update-race" })));
      expect(updates.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      expect((await api.call<Listing>("GET", "/records/drafts?filter[slug]=update-race")).body.meta!.total).toBe(1);
    });

    it("stores uploads in the customer database in chunks, serves them and deletes them with their record", async ({ contractProject }) => {
      const { client, projectId } = await contractProject(backend);
      const api = await client();
      const store = await getProjectRecordStore({ projectId });
      const counts = async () => ({ files: await store.count("_files"), chunks: await store.count("_file_chunks") });
      const before = await counts();
      const bytes = randomBytes(2 * 1024 * 1024 + 17);
      const send = async (method: string, pathname: string, title: string, content: Buffer) => {
        const form = new FormData();
        form.append("title", title);
        form.append("file", new Blob([new Uint8Array(content)], { type: "application/zip" }), "archive.zip");
        return api.send(method, pathname, form);
      };
      const created = await send("POST", "/records/uploads", "archive", bytes);
      expect(created.status).toBe(201);
      expect(await counts()).toEqual({ files: before.files + 1, chunks: before.chunks + 3 });
      const downloaded = await api.fetch(`/files/${created.body.file as string}`);
      expect(downloaded.headers.get("content-type")).toBe("application/zip");
      expect(Buffer.from(await downloaded.arrayBuffer()).equals(bytes)).toBe(true);

      // A failed write (taken unique title) leaves nothing behind.
      expect((await send("POST", "/records/uploads", "archive", bytes)).status).toBe(409);
      expect(await counts()).toEqual({ files: before.files + 1, chunks: before.chunks + 3 });

      const replaced = await send("PATCH", `/records/uploads/${created.body.id as string}`, "archive", Buffer.from("small"));
      expect(replaced.status).toBe(200);
      expect(await counts()).toEqual({ files: before.files + 1, chunks: before.chunks + 1 });
      expect((await api.call("DELETE", `/records/uploads/${created.body.id as string}`)).status).toBe(204);
      expect(await counts()).toEqual(before);
    });
  });
}

for (const backend of BACKENDS) {
  if (backend.open) registerRecordsApiContract({ name: backend.name, open: backend.open });
  else {
    describe(`records API contract on ${backend.name} — skipped: ${backend.skipped} is not set`, () => {
      it.skip(`runs against a real server when ${backend.skipped} is set`, () => undefined);
    });
  }
}
