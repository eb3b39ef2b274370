import { describe, expect, it } from "vitest";
import { checkMatchQuery, completeSort } from "../check-query";
import type { FieldCondition } from "../record-store";
import { orderBySql } from "./build-order-by";
import { SqlParams, conditionSql, likePattern, scalarGuard, whereSql } from "./build-where";
import { numberKey, plainTieIdKey, searchedText, sortKeysWithTieBreakers, textKey, textPrefixKey, typeRankKey } from "./field-keys";

function one(condition: FieldCondition, indexed = false): { sql: string; params: unknown[] } {
  const [checked] = checkMatchQuery({ where: [condition] }).where;
  if (!checked) throw new Error("condition did not check");
  const params = new SqlParams();
  return { sql: conditionSql(checked, params, () => indexed), params: params.values };
}

// Behaviour is covered against real PostgreSQL and PGlite by the contract suite; these pin the
// parts that matter for safety and index use.
describe("SQL built from typed conditions", () => {
  it("passes every value as a parameter, never inside the SQL", () => {
    const { sql, params } = one({ field: "name", op: "eq", value: "x'; DROP TABLE t; --" });
    expect(sql).not.toContain("DROP");
    expect(params).toEqual(['"x\'; DROP TABLE t; --"']);
  });

  it("equality on a scalar repeats the unique index predicate word for word, so the index applies", () => {
    expect(one({ field: "email", op: "eq", value: "a@x" }).sql).toBe(`((doc->'email') = $1::jsonb AND ${scalarGuard("email")})`);
    expect(scalarGuard("email")).toBe("jsonb_typeof(doc->'email') IN ('string', 'number', 'boolean')");
  });

  it("uses the id column for ids, and never matches what could not have been stored", () => {
    expect(one({ field: "id", op: "eq", value: "rec_1" })).toEqual({ sql: "id = $1", params: ["rec_1"] });
    expect(one({ field: "id", op: "in", value: ["a", 1, "b"] })).toEqual({ sql: "(id IN (SELECT jsonb_array_elements_text($1::jsonb)))", params: ['["a","b"]'] });
    expect(one({ field: "role", op: "eq", value: { $ne: null } })).toEqual({ sql: "FALSE", params: [] });
    expect(one({ field: "role", op: "ne", value: { $ne: null } })).toEqual({ sql: "TRUE", params: [] });
  });

  it("compares text byte-wise and numbers as numbers, each only against its own type", () => {
    expect(one({ field: "at", op: "gte", value: "2024" }).sql).toBe(`(jsonb_typeof((doc->'at')) = 'string' AND (doc->>'at') COLLATE "C" >= $1)`);
    expect(one({ field: "n", op: "lt", value: 5 }).sql).toBe(`(jsonb_typeof((doc->'n')) = 'number' AND (doc->'n') < $1::jsonb)`);
  });

  it("escapes LIKE wildcards and the escape character", () => {
    expect(likePattern("100%_\\x")).toBe("%100\\%\\_\\\\x%");
    expect(one({ field: "t", op: "contains", value: "a%" })).toEqual({
      sql: `(jsonb_typeof((doc->'t')) = 'string' AND (doc->>'t') ILIKE $1 ESCAPE '\\')`,
      params: ["%a\\%%"],
    });
  });

  it("writes an indexed field's conditions in its index keys, with every value a parameter", () => {
    const status = one({ field: "status", op: "eq", value: "open" }, true);
    expect(status.sql).toBe(`(${typeRankKey("status")} = 2 AND ${numberKey("status")} IS NULL AND ${textPrefixKey("status")} = $1)`);
    expect(status.params).toEqual(["open"]);
    expect(one({ field: "n", op: "gt", value: 5 }, true).sql).toBe(`(${typeRankKey("n")} = 1 AND ${numberKey("n")} > $1::jsonb::numeric)`);
    expect(one({ field: "n", op: "eq", value: null }, true).sql).toBe(`${typeRankKey("n")} = 0`);
    // Past the prefix an index keeps, the whole text is compared too.
    const long = one({ field: "t", op: "lt", value: "x".repeat(450) }, true);
    expect(long.sql).toContain(`${textPrefixKey("t")} <= $1 AND ${textKey("t")} < $2`);
    expect(long.params).toEqual(["x".repeat(400), "x".repeat(450)]);
    // System fields keep their own columns and indexes; ne and contains are not served by the index.
    expect(one({ field: "id", op: "eq", value: "rec_1" }, true).sql).toBe("id = $1");
    expect(one({ field: "status", op: "ne", value: "open" }, true).sql).toBe(one({ field: "status", op: "ne", value: "open" }).sql);
  });

  it("answers TRUE for no conditions", () => {
    expect(whereSql(checkMatchQuery(undefined), new SqlParams())).toBe("TRUE");
  });

  it("orders by the createdAt/id index by default", () => {
    expect(orderBySql(completeSort([]))).toBe(`(doc->>'createdAt') COLLATE "C" ASC, id ASC`);
  });

  it("writes a sort on one indexed field in its index's keys, the tie-breakers ascending either way", () => {
    const indexed = () => true;
    const desc = orderBySql(completeSort([{ field: "priority", direction: "desc" }]), indexed);
    expect(desc).toBe(sortKeysWithTieBreakers("priority", "DESC").join(", "));
    expect(desc).toContain(`${plainTieIdKey("priority")} ASC`);
    expect(desc.endsWith(`(doc->>'createdAt') COLLATE "C" ASC, id ASC`)).toBe(true);
    // Without the index, or with a tie-breaker of the caller's own, the plain keys.
    expect(orderBySql(completeSort([{ field: "priority", direction: "desc" }]))).not.toContain(plainTieIdKey("priority"));
    const twoFields = completeSort([
      { field: "priority", direction: "desc" },
      { field: "title", direction: "asc" },
    ]);
    expect(orderBySql(twoFields, indexed)).not.toContain(plainTieIdKey("priority"));
    expect(orderBySql(completeSort([{ field: "id", direction: "desc" }]), indexed)).toBe("id DESC");
  });

  it("matches a search against its index's expression when that index exists, the exact conditions kept only where they differ", () => {
    const exactSql = (text: string, fields = ["title", "body"]) => whereSql(checkMatchQuery({ search: { text, fields } }), new SqlParams());
    const indexedSql = (text: string, fields = ["title", "body"]) => {
      const params = new SqlParams();
      return { sql: whereSql(checkMatchQuery({ search: { text, fields } }), params, () => false, true), params: params.values };
    };
    expect(exactSql("50%")).not.toContain(searchedText(["title", "body"]));
    expect(indexedSql("50%")).toEqual({ sql: `${searchedText(["title", "body"])} ILIKE $1 ESCAPE '\\'`, params: ["%50\\%%"] });
    // A line break could join two fields' text; id has a collation of its own.
    expect(indexedSql("a\nb").sql).toBe(`(${searchedText(["title", "body"])} ILIKE $1 ESCAPE '\\' AND ${exactSql("a\nb")})`);
    expect(indexedSql("a", ["id", "title"]).sql).toBe(`(${searchedText(["id", "title"])} ILIKE $1 ESCAPE '\\' AND ${exactSql("a", ["id", "title"])})`);
  });
});
