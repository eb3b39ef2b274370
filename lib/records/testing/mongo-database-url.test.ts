import { describe, expect, it } from "vitest";
import { databaseNameFromUrl } from "../mongodb/map-document";
import { withMongoDatabase } from "./mongo-database-url";

describe("withMongoDatabase (test harness)", () => {
  it("replaces or adds the database and keeps hosts, credentials and options", () => {
    expect(withMongoDatabase("mongodb://127.0.0.1:27017", "t1")).toBe("mongodb://127.0.0.1:27017/t1");
    expect(withMongoDatabase("mongodb://127.0.0.1:27017/", "t1")).toBe("mongodb://127.0.0.1:27017/t1");
    expect(withMongoDatabase("mongodb://u:p@h1:1,h2:2/admin?replicaSet=rs0&authSource=admin", "t1")).toBe("mongodb://u:p@h1:1,h2:2/t1?replicaSet=rs0&authSource=admin");
    expect(withMongoDatabase("mongodb+srv://u:p@cluster0.example.net/?retryWrites=true", "t1")).toBe("mongodb+srv://u:p@cluster0.example.net/t1?retryWrites=true");
    expect(databaseNameFromUrl(withMongoDatabase("mongodb://h/x?a=b", "records_contract_1"))).toBe("records_contract_1");
  });
});
