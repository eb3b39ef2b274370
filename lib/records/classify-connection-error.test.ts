import { MongoServerError, MongoServerSelectionError } from "mongodb";
import { describe, expect, it } from "vitest";
import { classifyConnectionError } from "./classify-connection-error";
import { describeConnectionTarget } from "./describe-connection-target";

const nodeError = (code: string, message = `connect ${code}`) => Object.assign(new Error(message), { code });

function selection(serverError: unknown): MongoServerSelectionError {
  return new MongoServerSelectionError("Server selection timed out after 5000 ms", { servers: new Map([["h:27017", { error: serverError }]]) } as never);
}

// Name resolution cannot be exercised for real here (no DNS beyond loopback), so these errors are
// built the way Node and the drivers build them; refused, timed out, missing database and a
// refused role are exercised against real loopback servers in probe-connection.test.ts.
describe("classifyConnectionError", () => {
  it("name resolution", () => {
    expect(classifyConnectionError(nodeError("ENOTFOUND", "getaddrinfo ENOTFOUND db.example.invalid"))).toBe("cannot_resolve_host");
    expect(classifyConnectionError(nodeError("EAI_AGAIN"))).toBe("cannot_resolve_host");
    expect(classifyConnectionError(selection(new Error("getaddrinfo ENOTFOUND db.example.invalid")))).toBe("cannot_resolve_host");
    expect(classifyConnectionError(new Error("querySrv ENOTFOUND _mongodb._tcp.cluster0.example.net"))).toBe("cannot_resolve_host");
  });

  it("connection refused, also inside AggregateError and MongoDB's per-server errors", () => {
    expect(classifyConnectionError(nodeError("ECONNREFUSED"))).toBe("connection_refused");
    expect(classifyConnectionError(Object.assign(new AggregateError([nodeError("ECONNREFUSED"), nodeError("ECONNREFUSED")]), { code: "ECONNREFUSED" }))).toBe("connection_refused");
    expect(classifyConnectionError(selection(new Error("connect ECONNREFUSED 127.0.0.1:27017")))).toBe("connection_refused");
  });

  it("authentication", () => {
    expect(classifyConnectionError(nodeError("28P01", 'password authentication failed for user "app"'))).toBe("authentication_failed");
    expect(classifyConnectionError(nodeError("28000", 'role "x" does not exist'))).toBe("authentication_failed");
    expect(classifyConnectionError(new MongoServerError({ message: "Authentication failed.", code: 18, codeName: "AuthenticationFailed" }))).toBe("authentication_failed");
    expect(classifyConnectionError(selection(new MongoServerError({ message: "Authentication failed.", code: 18 })))).toBe("authentication_failed");
  });

  it("timeouts and missing databases", () => {
    expect(classifyConnectionError(new Error("Connection terminated due to connection timeout"))).toBe("timed_out");
    expect(classifyConnectionError(nodeError("ETIMEDOUT"))).toBe("timed_out");
    expect(classifyConnectionError(selection(undefined))).toBe("timed_out");
    expect(classifyConnectionError(nodeError("3D000", 'database "shop" does not exist'))).toBe("database_not_found");
  });

  it("anything else", () => {
    expect(classifyConnectionError(new Error("self-signed certificate"))).toBe("other");
    expect(classifyConnectionError("weird")).toBe("other");
  });
});

describe("describeConnectionTarget", () => {
  it("keeps hosts, user and database, never the password", () => {
    expect(describeConnectionTarget("postgres://app:s3cr3t@db.example.com:6543/shop?sslmode=require", 5432)).toEqual({
      hosts: "db.example.com:6543",
      user: "app",
      database: "shop",
    });
    expect(describeConnectionTarget("postgresql://db.example.com/shop", 5432)).toEqual({ hosts: "db.example.com:5432", user: undefined, database: "shop" });
    expect(describeConnectionTarget("mongodb://u:p@w/rd@h1:1,h2,[::1]:3/app?replicaSet=rs", 27017)).toEqual({ hosts: "h1:1, h2:27017, [::1]:3", user: "u", database: "app" });
    expect(describeConnectionTarget("mongodb+srv://u:p%40ss@cluster0.example.net", undefined)).toEqual({ hosts: "cluster0.example.net", user: "u", database: undefined });
    expect(describeConnectionTarget("nonsense", 1)).toEqual({ hosts: "the database server" });
    for (const url of ["postgres://app:s3cr3t@h/db", "mongodb://u:s3cr3t@h1,h2/db", "mongodb://u:s3/cr3t@h/db"]) {
      expect(JSON.stringify(describeConnectionTarget(url, 1))).not.toContain("cr3t");
    }
  });
});
