import { describe, expect, it } from "vitest";
import { orderIndexName, qualifiedTable, quoteIdentifier, tableName, uniqueIndexName } from "./table-names";

describe("PostgreSQL names", () => {
  it("keeps collection names as table names up to 63 characters, hashes longer ones", () => {
    expect(tableName("tickets")).toBe("tickets");
    expect(tableName(`_${"a".repeat(62)}`)).toBe(`_${"a".repeat(62)}`);
    const long = tableName(`_${"a".repeat(63)}`);
    expect(long).toHaveLength(63);
    expect(long).not.toBe(tableName(`_${"a".repeat(62)}b`));
    expect(qualifiedTable("tickets")).toBe('"flowpoint_records"."tickets"');
  });

  it("gives each (collection, field) its own index name within 63 characters", () => {
    expect(uniqueIndexName("a__b", "c")).not.toBe(uniqueIndexName("a", "b__c"));
    expect(uniqueIndexName("tickets", "email")).toMatch(/^tickets_email_[0-9a-f]{12}_u$/);
    expect(uniqueIndexName(`_${"a".repeat(63)}`, "b".repeat(64)).length).toBeLessThanOrEqual(63);
    expect(orderIndexName(`_${"a".repeat(63)}`).length).toBeLessThanOrEqual(63);
    expect(uniqueIndexName("tickets", "email")).toBe(uniqueIndexName("tickets", "email"));
  });

  it("quotes identifiers", () => {
    expect(quoteIdentifier('we"ird')).toBe('"we""ird"');
  });
});
