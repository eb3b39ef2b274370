import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseSchemaDefinition } from "@/lib/schemas/schema-definition";
import { DEFAULT_SORT, parseListQuery, searchableFields, toFindQuery } from "./parse-list-query";

const posts = parseSchemaDefinition({
  name: "posts",
  kind: "collection",
  fields: [
    { name: "title", type: "string" },
    { name: "body", type: "richtext" },
    { name: "summary", type: "text" },
    { name: "views", type: "integer" },
    { name: "rating", type: "number" },
    { name: "published", type: "boolean" },
    { name: "publishedAt", type: "datetime" },
    { name: "contact", type: "email" },
    { name: "website", type: "url" },
    { name: "status", type: "enum", values: ["draft", "live"] },
    { name: "meta", type: "json" },
    { name: "author", type: "relation", target: "authors" },
    { name: "tags", type: "relation", target: "tags", many: true },
    { name: "seo", type: "component", component: "seo" },
    { name: "blocks", type: "dynamic_zone", components: ["hero"] },
    { name: "cover", type: "file" },
  ],
});

const parse = (query: string) => parseListQuery({ schema: posts, params: new URLSearchParams(query) });

function problemsOf(query: string) {
  try {
    parse(query);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("bad_request");
    expect((error as AppError).status).toBe(400);
    return { message: (error as AppError).message, issues: (error as AppError).issues ?? [] };
  }
  throw new Error(`expected ${query} to be refused`);
}

describe("parseListQuery: defaults", () => {
  it("answers page 1 of 20, newest first, counted, nothing else", () => {
    expect(parse("")).toEqual({ where: [], search: null, sort: DEFAULT_SORT, page: 1, perPage: 20, expand: [], withTotal: true });
  });
});

describe("parseListQuery: filters", () => {
  it("reads filter[field]=value as equality, coerced to the field's type", () => {
    expect(parse("filter[title]=Hello&filter[views]=3&filter[published]=true&filter[rating]=4.5").where).toEqual([
      { field: "title", op: "eq", value: "Hello" },
      { field: "views", op: "eq", value: 3 },
      { field: "published", op: "eq", value: true },
      { field: "rating", op: "eq", value: 4.5 },
    ]);
  });

  it("reads every operator", () => {
    const query = [
      "filter[views][eq]=1",
      "filter[views][ne]=2",
      "filter[views][gt]=3",
      "filter[views][gte]=4",
      "filter[views][lt]=5",
      "filter[views][lte]=6",
      "filter[views][in]=7,8,9",
      "filter[title][contains]=hello world",
    ].join("&");
    expect(parse(query).where).toEqual([
      { field: "views", op: "eq", value: 1 },
      { field: "views", op: "ne", value: 2 },
      { field: "views", op: "gt", value: 3 },
      { field: "views", op: "gte", value: 4 },
      { field: "views", op: "lt", value: 5 },
      { field: "views", op: "lte", value: 6 },
      { field: "views", op: "in", value: [7, 8, 9] },
      { field: "title", op: "contains", value: "hello world" },
    ]);
  });

  it("accepts fractional bounds on integer fields", () => {
    expect(parse("filter[views][gt]=1.5").where).toEqual([{ field: "views", op: "gt", value: 1.5 }]);
  });

  it("normalizes date-times and emails like stored values", () => {
    expect(parse("filter[publishedAt][gte]=2025-01-01T01:00:00%2B01:00&filter[contact]=Ada@Example.COM").where).toEqual([
      { field: "publishedAt", op: "gte", value: "2025-01-01T00:00:00.000Z" },
      { field: "contact", op: "eq", value: "ada@example.com" },
    ]);
  });

  it("filters system fields", () => {
    expect(parse("filter[id][in]=rec_1,rec_2&filter[createdAt][lt]=2025-01-01&filter[updatedAt][gt]=2024-01-01T00:00:00Z").where).toEqual([
      { field: "id", op: "in", value: ["rec_1", "rec_2"] },
      { field: "createdAt", op: "lt", value: "2025-01-01T00:00:00.000Z" },
      { field: "updatedAt", op: "gt", value: "2024-01-01T00:00:00.000Z" },
    ]);
  });

  it("filters enums, single relations and files by identity", () => {
    expect(parse("filter[status][in]=draft,live&filter[author]=rec_a&filter[cover][ne]=fil_1").where).toEqual([
      { field: "status", op: "in", value: ["draft", "live"] },
      { field: "author", op: "eq", value: "rec_a" },
      { field: "cover", op: "ne", value: "fil_1" },
    ]);
  });

  it("keeps a filter value that looks like an operator object as plain text", () => {
    expect(parse('filter[title]={"$ne":null}').where).toEqual([{ field: "title", op: "eq", value: '{"$ne":null}' }]);
  });

  it("ANDs repeated conditions on one field", () => {
    expect(parse("filter[views][gte]=1&filter[views][lte]=9").where).toHaveLength(2);
  });

  it.each([
    ["filter[colour]=red", '"colour" is not a field of posts'],
    ["filter[passwordHash]=x", '"passwordHash" is not a field of posts'],
    ["filter[title][like]=x", '"like" is not a filter operator (eq, ne, gt, gte, lt, lte, in, contains)'],
    ["filter[title][$ne]=x", expect.stringContaining("not a filter operator")],
    ["filter[views][contains]=1", '"contains" does not apply to "views" (use eq, ne, gt, gte, lt, lte, in)'],
    ["filter[published][gt]=true", expect.stringContaining("does not apply")],
    ["filter[status][contains]=dr", expect.stringContaining("does not apply")],
    ["filter[id][gt]=rec_1", expect.stringContaining("does not apply")],
    ["filter[views]=many", "must be a number"],
    ["filter[views]=", "must be a number"],
    ["filter[views][in]=1,x", '"x" must be a number'],
    ["filter[published]=yes", "must be true or false"],
    ["filter[publishedAt]=yesterday", expect.stringContaining("ISO 8601")],
    ["filter[createdAt]=2025-01-01T10:00:00", expect.stringContaining("time zone")],
    ["filter[status]=archived", 'must be one of "draft", "live"'],
    ["filter[meta]=x", '"meta" cannot be filtered'],
    ["filter[tags]=rec_1", '"tags" cannot be filtered'],
    ["filter[seo]=x", '"seo" cannot be filtered'],
    ["filter[blocks]=x", '"blocks" cannot be filtered'],
    ["filter[title][contains]=", "needs some text to look for"],
    [`filter[title]=${"x".repeat(1001)}`, "must be at most 1000 characters"],
    ["filter[title]=a%00b", "must not contain the NUL character"],
    [`filter[views][in]=${Array.from({ length: 101 }, (_, i) => i).join(",")}`, "takes at most 100 values"],
  ])("refuses %s, naming the parameter", (query, message) => {
    const path = query.slice(0, query.indexOf("="));
    expect(problemsOf(query).issues).toEqual([{ path, message }]);
  });

  it("names the parameter in the error message", () => {
    expect(problemsOf("filter[colour]=red").message).toBe('filter[colour]: "colour" is not a field of posts');
  });

  it("caps the number of conditions", () => {
    const query = Array.from({ length: 51 }, (_, index) => `filter[views][ne]=${index}`).join("&");
    expect(problemsOf(query).issues).toEqual([{ path: "filter", message: "at most 50 filter conditions are allowed" }]);
  });
});

describe("parseListQuery: search", () => {
  it("searches the text fields, case-insensitively in the store", () => {
    expect(parse("search=%20hello%20").search).toEqual({ text: "hello", fields: ["title", "body", "summary", "contact", "website"] });
    expect(parse("search=").search).toBeNull();
  });

  it("includes the auth email", () => {
    const members = parseSchemaDefinition({ name: "members", kind: "auth", fields: [{ name: "nickname", type: "string" }] });
    expect(searchableFields(members)).toEqual(["email", "nickname"]);
  });

  it("refuses a search over a schema without text fields, and overlong text", () => {
    const counters = parseSchemaDefinition({ name: "counters", kind: "collection", fields: [{ name: "n", type: "integer" }] });
    expect(() => parseListQuery({ schema: counters, params: new URLSearchParams("search=x") })).toThrow("search: counters has no text fields to search");
    expect(problemsOf(`search=${"x".repeat(201)}`).issues[0]?.path).toBe("search");
  });

  it("searches at most 20 fields", () => {
    const wide = parseSchemaDefinition({ name: "wide", kind: "collection", fields: Array.from({ length: 25 }, (_, index) => ({ name: `f${index}`, type: "string" })) });
    expect(searchableFields(wide)).toHaveLength(20);
  });
});

describe("parseListQuery: sort", () => {
  it("reads fields and directions and appends the id as a tie-breaker", () => {
    expect(parse("sort=-createdAt,title").sort).toEqual([
      { field: "createdAt", direction: "desc" },
      { field: "title", direction: "asc" },
      { field: "id", direction: "asc" },
    ]);
    expect(parse("sort=-views").sort).toEqual([
      { field: "views", direction: "desc" },
      { field: "id", direction: "desc" },
    ]);
    expect(parse("sort=id").sort).toEqual([{ field: "id", direction: "asc" }]);
  });

  it.each([
    ["sort=colour", '"colour" is not a field of posts'],
    ["sort=meta", '"meta" cannot be sorted by'],
    ["sort=tags", '"tags" cannot be sorted by'],
    ["sort=title,-title", 'names "title" twice'],
    ["sort=", "has an empty field name"],
    ["sort=title,", "has an empty field name"],
    ["sort=a,b,c,d,e,f", "takes at most 5 fields"],
  ])("refuses %s", (query, message) => {
    expect(problemsOf(query).issues).toEqual([{ path: "sort", message }]);
  });
});

describe("parseListQuery: paging, expansion, total", () => {
  it("reads page and perPage", () => {
    expect(parse("page=3&perPage=100")).toMatchObject({ page: 3, perPage: 100 });
  });

  it.each([
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["page=abc", "page"],
    ["perPage=0", "perPage"],
    ["perPage=101", "perPage"],
    ["perPage=1e2", "perPage"],
    ["page=2&page=3", "page"],
  ])("refuses %s", (query, path) => {
    expect(problemsOf(query).issues.map((issue) => issue.path)).toEqual([path]);
  });

  it("reads expand as relation fields, each once", () => {
    expect(parse("expand=author,tags,author").expand).toEqual(["author", "tags"]);
    expect(parse("expand= author , ").expand).toEqual(["author"]);
  });

  it("refuses to expand what is not a relation", () => {
    expect(problemsOf("expand=author,title,ghost").issues).toEqual([
      { path: "expand", message: '"title" is not a relation field' },
      { path: "expand", message: '"ghost" is not a field of posts' },
    ]);
  });

  it("reads total=false", () => {
    expect(parse("total=false").withTotal).toBe(false);
    expect(parse("total=true").withTotal).toBe(true);
    expect(problemsOf("total=no").issues).toEqual([{ path: "total", message: "must be true or false" }]);
  });

  it("refuses unknown parameters (a typo must not silently widen a query)", () => {
    expect(problemsOf("filters[title]=x").issues).toEqual([{ path: "filters[title]", message: expect.stringContaining("not a known query parameter") }]);
    expect(problemsOf("limit=5").issues[0]?.path).toBe("limit");
    expect(problemsOf("filter[title][eq][x]=5").issues[0]?.path).toBe("filter[title][eq][x]");
  });

  it("reports every problem at once", () => {
    expect(problemsOf("perPage=500&sort=ghost&filter[x]=1").issues.map((issue) => issue.path)).toEqual(["perPage", "sort", "filter[x]"]);
  });
});

describe("toFindQuery", () => {
  it("maps a parsed query to the record store's FindQuery", () => {
    const signal = new AbortController().signal;
    const query = parse("filter[views][gt]=2&search=hi&sort=title&page=3&perPage=10");
    expect(toFindQuery(query, { signal })).toEqual({
      where: [{ field: "views", op: "gt", value: 2 }],
      search: { text: "hi", fields: ["title", "body", "summary", "contact", "website"] },
      sort: [
        { field: "title", direction: "asc" },
        { field: "id", direction: "asc" },
      ],
      skip: 20,
      limit: 10,
      signal,
    });
    expect(toFindQuery(parse(""))).toEqual({ where: [], sort: DEFAULT_SORT, skip: 0, limit: 20 });
  });
});
