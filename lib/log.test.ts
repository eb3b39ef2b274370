import { describe, expect, it } from "vitest";
import { createLogger, formatLogLine, isSensitiveFieldName, maskConnectionString, redactText, redactValue, type LogLevel } from "./log";

describe("maskConnectionString", () => {
  it.each([
    ["postgres://user:secret@host", "postgres://user:****@host"],
    ["postgresql://user:secret@db.internal:5432/app?sslmode=require", "postgresql://user:****@db.internal:5432/app?sslmode=require"],
    ["mongodb+srv://admin:p%40ss@cluster0.abc.mongodb.net/app?retryWrites=true", "mongodb+srv://admin:****@cluster0.abc.mongodb.net/app?retryWrites=true"],
    ["mongodb://u:pw@h1:27017,h2:27017/db?replicaSet=rs0", "mongodb://u:****@h1:27017,h2:27017/db?replicaSet=rs0"],
    ["redis://:redispw@127.0.0.1:6379/0", "redis://:****@127.0.0.1:6379/0"],
    ["rediss://default:tok@eu1.upstash.io:6379", "rediss://default:****@eu1.upstash.io:6379"],
    ["smtp://mailer:sm7p@smtp.example.com:587", "smtp://mailer:****@smtp.example.com:587"],
    ["smtps://mailer:sm7p@smtp.example.com:465", "smtps://mailer:****@smtp.example.com:465"],
    ["postgres://host/db?user=app&password=abc&sslmode=require", "postgres://host/db?user=app&password=****&sslmode=require"],
  ])("masks %s", (input, expected) => {
    expect(maskConnectionString(input)).toBe(expected);
  });

  it("leaves a URL without a password as it is", () => {
    expect(maskConnectionString("postgres://user@host/db")).toBe("postgres://user@host/db");
    expect(maskConnectionString("mongodb://localhost:27017/app")).toBe("mongodb://localhost:27017/app");
  });

  it("masks a password holding raw @ and / characters entirely", () => {
    expect(maskConnectionString("postgres://u:pa/ss@word@host/db")).toBe("postgres://u:****@host/db");
  });

  it("keeps an @ in the query string out of the credentials", () => {
    expect(maskConnectionString("postgres://u:pw@host/db?application_name=a@b")).toBe("postgres://u:****@host/db?application_name=a@b");
  });
});

describe("redactText", () => {
  it("masks connection strings inside driver error messages", () => {
    expect(redactText('connect ECONNREFUSED for "postgres://app:hunter2@10.0.0.1/app": retry later')).toBe(
      'connect ECONNREFUSED for "postgres://app:****@10.0.0.1/app": retry later',
    );
    expect(redactText("MongoServerSelectionError: mongodb+srv://a:b@x.net/db and redis://:c@r:6379 failed")).toBe(
      "MongoServerSelectionError: mongodb+srv://a:****@x.net/db and redis://:****@r:6379 failed",
    );
  });

  it("masks Authorization headers and bearer tokens", () => {
    expect(redactText("Authorization: Bearer eyJhbGciOi.abc.def")).toBe("Authorization: Bearer ****");
    expect(redactText('{"authorization":"Basic dXNlcjpwYXNz","x":1}')).toBe('{"authorization":"Basic ****","x":1}');
    expect(redactText("authorization=rawtoken123 next")).toBe("authorization=**** next");
    expect(redactText("sent with bearer abc123 to x")).toBe("sent with bearer **** to x");
  });

  it("masks password=..., token: ... and JSON secret pairs", () => {
    expect(redactText("DB_PASSWORD=hunter2 other=ok")).toBe("DB_PASSWORD=**** other=ok");
    expect(redactText("host=db password=hunter2 user=app")).toBe("host=db password=**** user=app");
    expect(redactText('{"password":"p w","apiKey":"k","name":"n"}')).toBe('{"password":"****","apiKey":"****","name":"n"}');
    expect(redactText("api_key='zzz'; next")).toBe("api_key='****'; next");
    expect(redactText("client_secret: abc, token: def")).toBe("client_secret: ****, token: ****");
  });

  it("keeps a URL user named like a secret visible", () => {
    expect(redactText("postgres://token:pw@host/db")).toBe("postgres://token:****@host/db");
  });

  it("leaves ordinary text alone", () => {
    const text = "step 3 failed: record rec_123 not found at 12:30 (passes=2, tokenizer: jmespath)";
    expect(redactText(text)).toBe(text);
  });
});

describe("field masking", () => {
  it.each(["password", "dbPassword", "passwd", "secret", "clientSecret", "token", "accessToken", "apiKey", "api_key", "Authorization", "cookie"])(
    "treats %s as sensitive",
    (name) => {
      expect(isSensitiveFieldName(name)).toBe(true);
    },
  );

  it.each(["name", "email", "bypass", "compass", "url", "databaseUrlHint"])("treats %s as ordinary", (name) => {
    expect(isSensitiveFieldName(name)).toBe(false);
  });

  it("masks nested fields, URLs in values, errors and cycles", () => {
    const error = new Error("connect failed postgres://a:b@c/db") as Error & { code: string };
    error.code = "ECONNREFUSED";
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const redacted = redactValue({
      nested: { apiKey: "k", url: "redis://:z@h:6379", list: [{ token: "t" }, "Bearer abc"] },
      error,
      cyclic,
      count: 3n,
      empty: undefined,
    }) as Record<string, unknown>;
    expect(redacted.nested).toEqual({ apiKey: "****", url: "redis://:****@h:6379", list: [{ token: "****" }, "Bearer ****"] });
    expect(redacted.error).toMatchObject({ name: "Error", message: "connect failed postgres://a:****@c/db", code: "ECONNREFUSED" });
    expect(JSON.stringify(redacted.error)).not.toContain(":b@");
    expect(redacted.cyclic).toEqual({ name: "loop", self: "[circular]" });
    expect(redacted.count).toBe("3");
    expect(redacted.empty).toBeNull();
  });
});

describe("logger", () => {
  const epoch = new Date("2024-05-01T12:00:00.000Z");

  it("writes one exact JSON line per entry", () => {
    expect(formatLogLine("info", "project created", { projectId: "prj_1", count: 2 }, epoch)).toBe(
      '{"time":"2024-05-01T12:00:00.000Z","level":"info","msg":"project created","projectId":"prj_1","count":2}',
    );
  });

  it("masks secrets in the message and every field", () => {
    const lines: Array<[LogLevel, string]> = [];
    const logger = createLogger({ write: (line, level) => lines.push([level, line]), now: () => epoch });
    logger.error("driver said: postgres://app:hunter2@db/app\nretrying", {
      password: "hunter2",
      databaseUrl: "postgres://app:hunter2@db/app",
      headers: { Authorization: "Bearer abc.def" },
      level: "shadowed",
    });
    logger.warn("plain");
    logger.info("hello", { apiKey: "" });
    expect(lines).toEqual([
      [
        "error",
        '{"time":"2024-05-01T12:00:00.000Z","level":"error","msg":"driver said: postgres://app:****@db/app\\nretrying","password":"****","databaseUrl":"postgres://app:****@db/app","headers":{"Authorization":"****"},"field.level":"shadowed"}',
      ],
      ["warn", '{"time":"2024-05-01T12:00:00.000Z","level":"warn","msg":"plain"}'],
      ["info", '{"time":"2024-05-01T12:00:00.000Z","level":"info","msg":"hello","apiKey":""}'],
    ]);
    for (const [, line] of lines) {
      expect(line).not.toContain("hunter2");
      expect(line.split("\n")).toHaveLength(1);
    }
  });

  it("survives a field whose getter throws", () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (line) => lines.push(line), now: () => epoch });
    const hostile = {
      get boom(): string {
        throw new Error("nope");
      },
    };
    logger.info("with hostile field", { hostile });
    expect(lines).toEqual(['{"time":"2024-05-01T12:00:00.000Z","level":"info","msg":"with hostile field","logError":"fields could not be serialised"}']);
  });
});
