import { describe, expect } from "vitest";
import type { Permission } from "@/lib/auth/permissions";
import { createProjectFixture } from "@/test/fixtures";
import { projectApi } from "@/test/support/project-api";
import { routeTest } from "@/test/support/route-test";

/**
 * Security cases specific to the records API (the generic sweep of every project route is in
 * project-routes.security.test.ts): operator injection through query parameters and bodies,
 * forbidden keys, and isolation between projects.
 */
type Json = Record<string, unknown>;
type Body = Json & { data?: Json[]; meta?: Json; issues?: { path: string; message: string }[] };

const ALL: Permission[] = ["schemas.write", "records.read", "records.create", "records.update", "records.delete"];
const POSTS = {
  name: "posts",
  kind: "collection",
  fields: [
    { name: "title", type: "string" },
    { name: "qty", type: "integer" },
    { name: "meta", type: "json" },
  ],
};

const it = routeTest
  /** This project's client with every schemas and records permission; a `posts` schema with three records. */
  .extend("api", { scope: "file" }, async ({ ownerApi, project }) => {
    const api = ownerApi.with({ credentials: { key: await project.keyFor(ALL) } });
    expect((await api.call("POST", "/schemas", POSTS)).status).toBe(201);
    for (const title of ["alpha", "beta", "' OR '1'='1"]) await api.call("POST", "/records/posts", { title, qty: 1 });
    return api;
  })
  /** Another project with the same `posts` schema (one record), a `private` schema, and its own client. */
  .extend("theirs", { scope: "file" }, async ({ server }) => {
    const fixture = await createProjectFixture("Theirs");
    const api = projectApi(server, fixture, { key: await fixture.keyFor(ALL) });
    expect((await api.call("POST", "/schemas", POSTS)).status).toBe(201);
    expect((await api.call("POST", "/schemas", { name: "private", kind: "collection", fields: [{ name: "secret", type: "string" }] })).status).toBe(201);
    const record = (await api.call("POST", "/records/posts", { title: "theirs", qty: 2 })).body;
    return { projectId: fixture.projectId, api, record };
  });

describe("operator injection through the list query", () => {
  it("treats filter values as literals, never as operators or SQL", async ({ api }) => {
    const literal = [
      `filter[title]=${encodeURIComponent('{"$ne":null}')}`,
      `filter[title]=${encodeURIComponent('{"$gt":""}')}`,
      `filter[title][ne]=${encodeURIComponent('{"$ne":null}')}`,
      `filter[title]=${encodeURIComponent("alpha' OR 1=1 --")}`,
      `filter[title][in]=${encodeURIComponent("alpha') OR ('1'='1")}`,
      `filter[title][contains]=${encodeURIComponent("%' OR '1'='1")}`,
      `filter[id]=${encodeURIComponent('{"$exists":true}')}`,
      `search=${encodeURIComponent("') OR 1=1 --")}`,
      `search=${encodeURIComponent(".*")}`,
    ];
    for (const query of literal) {
      const answer = await api.call<Body>("GET", `/records/posts?${query}`);
      expect(answer.status, query).toBe(200);
      // [ne] with an object literal matches every record (none equals that text); the others match none.
      const expected = query.startsWith("filter[title][ne]") ? 3 : 0;
      expect(answer.body.meta!.total, query).toBe(expected);
    }
    // A stored title that looks like SQL is found by equality, and only it.
    const sqlish = await api.call<Body>("GET", `/records/posts?filter[title]=${encodeURIComponent("' OR '1'='1")}`);
    expect(sqlish.body.data!.map((record) => record.title)).toEqual(["' OR '1'='1"]);
  });

  it("refuses operators, fields and structure smuggled into parameter names", async ({ api }) => {
    const refused = [
      "filter[title][$ne]=x",
      "filter[title][$regex]=.*",
      "filter[$where]=1",
      "filter[$or]=1",
      "filter[title.length]=5",
      "filter[meta.secret]=x",
      "filter[__proto__]=x",
      "filter[title][ne][x]=1",
      "filter[qty][in]=1)%20OR%20(1=1",
      "filter[title]=%00",
      "sort=title;DROP%20TABLE%20posts",
      "sort=$natural",
      "sort=meta.secret",
      "expand=$lookup",
      "$where=1",
    ];
    for (const query of refused) {
      const answer = await api.call<Body>("GET", `/records/posts?${query}`);
      expect(answer.status, query).toBe(400);
    }
    expect((await api.call<Body>("GET", "/records/posts")).body.meta!.total).toBe(3);
  });
});

describe("forbidden keys in bodies", () => {
  it("refuses $ and dotted keys at any depth, and __proto__ without polluting anything", async ({ api }) => {
    const cases: Array<[string, string]> = [
      ['{"$set":{"title":"x"}}', "$set"],
      ['{"title":"x","meta":{"$where":"sleep(1000)"}}', "meta.$where"],
      ['{"title":"x","meta":{"a":{"b.c":1}}}', "meta.a.b.c"],
      ['{"title":"x","meta":[{"$gt":1}]}', "meta.0.$gt"],
      ['{"__proto__":{"polluted":true},"title":"x"}', "__proto__"],
      ['{"title":"x","meta":{"__proto__":{"polluted":true}}}', "meta.__proto__"],
      ['{"constructor":{"prototype":{"polluted":true}}}', "constructor"],
    ];
    for (const [body, issuePath] of cases) {
      const created = await api.call<Body>("POST", "/records/posts", body);
      expect(created.status, body).toBe(422);
      expect(
        created.body.issues!.map((issue) => issue.path),
        body,
      ).toContain(issuePath);
    }
    const [first] = (await api.call<Body>("GET", "/records/posts?perPage=1")).body.data!;
    for (const [body, issuePath] of cases) {
      const patched = await api.call<Body>("PATCH", `/records/posts/${first!.id as string}`, body);
      expect(patched.status, body).toBe(422);
      expect(
        patched.body.issues!.map((issue) => issue.path),
        body,
      ).toContain(issuePath);
    }
    expect(({} as Json).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("refuses the same keys as multipart form field names", async ({ api }) => {
    for (const name of ["$set", "title.x", "__proto__"]) {
      const form = new FormData();
      form.append("title", "ok");
      form.append(name, "x");
      const answer = await api.send<Body>("POST", "/records/posts", form);
      expect(answer.status, name).toBe(422);
      expect(answer.body.issues!.map((issue) => issue.path)).toEqual([name]);
    }
  });
});

describe("isolation between projects", () => {
  it("never reads or writes a record of another project's schema, even under the same schema name", async ({ api, theirs }) => {
    const id = theirs.record.id as string;
    for (const [method, body] of [["GET"], ["PATCH", { title: "hijacked" }], ["DELETE"]] as const) {
      const answer = await api.call<Body>(method, `/records/posts/${id}`, body);
      expect(answer.status, method).toBe(404);
    }
    expect((await api.call<Body>("GET", `/records/posts?filter[id]=${id}`)).body.data).toEqual([]);
    expect((await api.call<Body>("GET", "/records/private")).status).toBe(404);
    // My key on their project answers as if it did not exist.
    for (const method of ["GET", "DELETE"]) {
      const answer = await api.with({ projectId: theirs.projectId }).call(method, `/records/posts/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: "project not found", code: "not_found" });
    }
    const intact = await theirs.api.call("GET", `/records/posts/${id}`);
    expect(intact.body).toEqual(theirs.record);
  });

  it("cannot point a relation at another project's record", async ({ api, theirs }) => {
    expect((await api.call<Body>("POST", "/schemas", { name: "links", kind: "collection", fields: [{ name: "post", type: "relation", target: "posts" }] })).status).toBe(201);
    const answer = await api.call<Body>("POST", "/records/links", { post: theirs.record.id });
    expect(answer.status).toBe(422);
    expect(answer.body.issues).toEqual([{ path: "post", message: `no posts record has the id "${theirs.record.id as string}"` }]);
  });

  it("answers 404, never a server error, for names and ids with NUL or control characters", async ({ api }) => {
    for (const pathname of ["/records/posts%00", "/records/posts/rec%00x", "/records/po%0Asts", "/records/posts/rec%0D%0Ax"]) {
      const answer = await api.call<Body>("GET", pathname);
      expect(answer.status, pathname).toBe(404);
    }
  });
});

describe("permissions per action", () => {
  it("lets each records permission do its own action only", async ({ project, api }) => {
    const [first] = (await api.call<Body>("GET", "/records/posts?perPage=1")).body.data!;
    const path = `/records/posts/${first!.id as string}`;
    const actions: Array<[Permission, string, string, unknown]> = [
      ["records.read", "GET", "/records/posts", undefined],
      ["records.read", "GET", path, undefined],
      ["records.create", "POST", "/records/posts", { title: "new" }],
      ["records.update", "PATCH", path, { qty: 5 }],
      ["records.delete", "DELETE", path, undefined],
    ];
    const keys = new Map<Permission, string>();
    for (const permission of ["records.read", "records.create", "records.update", "records.delete"] as Permission[]) keys.set(permission, await project.keyFor([permission]));
    for (const [permission, method, pathname, body] of actions) {
      for (const [other, key] of keys) {
        if (other === permission) continue;
        const answer = await api.with({ credentials: { key } }).call(method, pathname, body);
        expect(answer.status, `${other} ${method} ${pathname}`).toBe(403);
      }
    }
    for (const [permission, method, pathname, body] of actions) {
      const answer = await api.with({ credentials: { key: keys.get(permission)! } }).call(method, pathname, body);
      expect([200, 201, 204], `${permission} ${method} ${pathname}`).toContain(answer.status);
    }
  });

  it("never answers or accepts passwords of auth schemas through the records API", async ({ api }) => {
    expect((await api.call<Body>("POST", "/schemas", { name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] })).status).toBe(201);
    for (const body of [
      { email: "m@example.com", password: "hunter22" },
      { email: "m@example.com", passwordHash: "x" },
    ]) {
      const answer = await api.call<Body>("POST", "/records/members", body);
      expect(answer.status).toBe(422);
      expect(answer.body.issues![0]!.message).toBe("passwords are set through the auth endpoints (register, reset-password), not the records API");
    }
    const created = await api.call<Body>("POST", "/records/members", { email: "M@Example.com", nickname: "m" });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(["id", "email", "emailVerified", "nickname", "createdAt", "updatedAt"]);
    expect(created.body.email).toBe("m@example.com");
  });
});

describe("rate limit", () => {
  it("counts each call of a key once, whether its limit starts beside the generation read or after it, and answers 429 once a minute's 600 are used", async ({ project, api }) => {
    const key = await project.keyFor(["records.read"]);
    // The first call loads the project's runtime (the limit is taken in order); the others find the key
    // in the runtime this instance holds (the limit starts early). A call counted twice would hit 429 at ~300.
    // A sliding window weighs the previous minute's count down as time passes, so a run that crosses a
    // minute boundary may see a few extra calls pass (the 601st then once failed in CI); never fewer than 600.
    const statuses = new Map<number, number>();
    let limited: Awaited<ReturnType<typeof api.call>> | null = null;
    for (let index = 0; index < 1_200 && !limited; index++) {
      const response = await api.with({ credentials: { key } }).call("GET", "/records/posts");
      if (response.status === 429) limited = response;
      else statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThanOrEqual(600);
    expect(statuses.get(200)).toBeLessThan(1_200);
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited!.body).toMatchObject({ error: "too many requests", code: "rate_limited" });
    // Another key of the same project has its own allowance.
    expect((await api.call<Body>("GET", "/records/posts")).status).toBe(200);
  }, 60_000);
});
