import { describe, expect, it } from "vitest";
import { unindexedQueryFields } from "./unindexed-query-fields";

const tickets = {
  kind: "collection" as const,
  fields: [{ name: "status", indexed: true }, { name: "code", unique: true }, { name: "owner" }, { name: "priority" }],
};

describe("unindexedQueryFields", () => {
  it("names filtered and sorted fields that no index serves", () => {
    expect(unindexedQueryFields(tickets, { filters: "status=open\nowner={{query.owner}}\ncode=x\nowner=y", sort: "-priority" })).toEqual({ filters: ["owner"], sort: "priority" });
  });

  it("counts indexed fields, unique fields (filters only), id and createdAt as served", () => {
    expect(unindexedQueryFields(tickets, { filters: "id={{query.id}}\ncreatedAt=2025-01-01", sort: "-createdAt" })).toEqual({ filters: [], sort: null });
    expect(unindexedQueryFields(tickets, { filters: "", sort: "status" })).toEqual({ filters: [], sort: null });
    expect(unindexedQueryFields(tickets, { sort: "code" })).toEqual({ filters: [], sort: "code" });
    expect(unindexedQueryFields(tickets, { sort: "updatedAt" })).toEqual({ filters: [], sort: "updatedAt" });
  });

  it("treats an auth schema's email as unique, and leaves unknown fields and bad filter text to the validation", () => {
    expect(unindexedQueryFields({ kind: "auth", fields: [] }, { filters: "email={{body.email}}\nemailVerified=true" })).toEqual({ filters: ["emailVerified"], sort: null });
    expect(unindexedQueryFields(tickets, { filters: "nope=1", sort: "nope" })).toEqual({ filters: [], sort: null });
    expect(unindexedQueryFields(tickets, { filters: "no equals sign" })).toEqual({ filters: [], sort: null });
  });
});
