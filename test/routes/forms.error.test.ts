import { request as httpRequest } from "node:http";
import { describe, expect } from "vitest";
import { newId } from "@/lib/ids";
import { insertFormAutomation, readStoredSubmissions, jsonBody as json } from "@/test/support/form-fixtures";
import { routeTest } from "@/test/support/route-test";

const LIMIT = 100 * 1024;

/** The project's form automations, made before the file's first test: `contact` (its id), `paused` (disabled) and `busy` (for the rate limit). */
const it = routeTest.extend("contactId", { scope: "file", auto: true }, async ({ project }) => {
  const contactId = await insertFormAutomation({ projectId: project.projectId, trigger: { form: "contact" } });
  await insertFormAutomation({ projectId: project.projectId, trigger: { form: "paused" }, enabled: false });
  await insertFormAutomation({ projectId: project.projectId, trigger: { form: "busy" } });
  return contactId;
});

/** A JSON object of exactly `size` bytes. */
function jsonOfSize(size: number): string {
  const shell = JSON.stringify({ text: "" });
  return JSON.stringify({ text: "x".repeat(size - shell.length) });
}

/**
 * Streams a chunked urlencoded body (no Content-Length) until the answer arrives or `max` bytes were
 * sent, over node:http so the test sees when the server answers mid-upload.
 */
function streamChunkedPost(url: string, chunkSize: number, max: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = httpRequest(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", connection: "close" } }, (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(chunkSize, "y");
    const pump = (): void => {
      while (!answered && sent < max) {
        sent += chunk.byteLength;
        if (!request.write(chunk)) {
          request.once("drain", pump);
          return;
        }
      }
      if (!answered) request.end();
    };
    pump();
  });
}

async function expectError(response: Response, status: number, error?: string): Promise<{ error: string; issues?: Array<{ path: string; message: string }> }> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
  const body = (await response.json()) as { error: string; issues?: Array<{ path: string; message: string }> };
  if (error !== undefined) expect(body.error).toBe(error);
  return body;
}

describe("404", () => {
  it("answers the same body for an unknown project, an unknown form and a disabled one, for posts and preflights", async ({ project, ownerApi }) => {
    const formUrl = (form: string, projectId = project.projectId) => ownerApi.with({ projectId }).url(`/forms/${form}`);
    const urls = [formUrl("contact", newId("project")), formUrl("contact", "not-a-project"), formUrl("nope"), formUrl("paused"), formUrl("Contact")];
    for (const url of urls) {
      const posted = await fetch(url, { method: "POST", ...json({ name: "x" }) });
      expect(posted.status, url).toBe(404);
      expect(await posted.json(), url).toEqual({ error: "not found", code: "not_found" });
      const preflight = await fetch(url, { method: "OPTIONS", headers: { origin: "https://shop.example", "access-control-request-method": "POST" } });
      expect(preflight.status, url).toBe(404);
      expect(await preflight.json(), url).toEqual({ error: "not found", code: "not_found" });
    }
  });
});

describe("bodies", () => {
  it("takes exactly 100 KB and refuses 100 KB + 1 with 413, declared or streamed", async ({ ownerApi }) => {
    expect((await ownerApi.postForm("contact", { headers: { "content-type": "application/json" }, body: jsonOfSize(LIMIT) })).status).toBe(202);
    await expectError(await ownerApi.postForm("contact", { headers: { "content-type": "application/json" }, body: jsonOfSize(LIMIT + 1) }), 413);
    const form = `a=${"x".repeat(LIMIT - 1)}`;
    await expectError(await ownerApi.postForm("contact", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: form }), 413);

    // No Content-Length (chunked): counted while streaming, answered 413 as soon as it passes the limit.
    const streamed = await streamChunkedPost(ownerApi.url("/forms/contact"), 16 * 1024, 8 * LIMIT);
    expect(streamed.status).toBe(413);
    expect(streamed.body).toContain("request body is larger than 102400 bytes");
  });

  it("refuses other content types with 415, before reading the body", async ({ ownerApi }) => {
    for (const contentType of ["text/plain", "application/xml", "application/jsonp", "text/html", "application/octet-stream"]) {
      await expectError(await ownerApi.postForm("contact", { headers: { "content-type": contentType }, body: "name=x" }), 415);
    }
    // No Content-Type at all.
    await expectError(await ownerApi.postForm("contact", { body: new Uint8Array([110, 61, 49]) }), 415);
  });

  it("refuses a multipart post that carries a file with 415 and stores nothing", async ({ project, ownerApi, contactId }) => {
    const before = (await readStoredSubmissions(project.projectId, contactId)).length;
    const body = new FormData();
    body.append("name", "Ada");
    body.append("cv", new Blob(["%PDF-1.7 ..."], { type: "application/pdf" }), "cv.pdf");
    await expectError(await ownerApi.postForm("contact", { body }), 415, "forms accept fields only, not file uploads");
    // A named file with no bytes is still a file the visitor chose.
    const emptyFile = new FormData();
    emptyFile.append("cv", new Blob([]), "empty.txt");
    await expectError(await ownerApi.postForm("contact", { body: emptyFile }), 415);
    expect((await readStoredSubmissions(project.projectId, contactId)).length).toBe(before);
  });

  it("answers 400 for malformed JSON, JSON that is not an object and a broken multipart body", async ({ ownerApi }) => {
    await expectError(await ownerApi.postForm("contact", { headers: { "content-type": "application/json" }, body: '{"name": "x",' }), 400, "request body is not valid JSON");
    for (const value of [[1, 2], "text", 42, null]) {
      await expectError(await ownerApi.postForm("contact", json(value)), 400, "request body must be a JSON object");
    }
    await expectError(await ownerApi.postForm("contact", { headers: { "content-type": "multipart/form-data" }, body: "name=x" }), 400, "malformed multipart body");
  });

  it("takes 200 fields and refuses 201 with 400 and an issue", async ({ ownerApi }) => {
    const fields = (count: number) => new URLSearchParams(Array.from({ length: count }, (_, i) => [`f${i}`, "v"]));
    expect((await ownerApi.postForm("contact", { body: fields(200) })).status).toBe(202);
    const body = await expectError(await ownerApi.postForm("contact", { body: fields(201) }), 400, "too many fields");
    expect(body.issues).toEqual([{ path: "fields", message: "a submission has at most 200 fields" }]);
    // Repeats of one name count one by one.
    const repeated = new URLSearchParams(Array.from({ length: 201 }, () => ["same", "v"]));
    await expectError(await ownerApi.postForm("contact", { body: repeated }), 400, "too many fields");
    const jsonFields = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, i]));
    await expectError(await ownerApi.postForm("contact", json(jsonFields)), 400, "too many fields");
  });

  it("refuses field names over 100 characters and names the database cannot store, with issues", async ({ ownerApi }) => {
    expect((await ownerApi.postForm("contact", json({ ["n".repeat(100)]: "ok" }))).status).toBe(202);
    const long = await expectError(await ownerApi.postForm("contact", json({ ["n".repeat(101)]: "x" })), 400, "invalid submission");
    expect(long.issues).toEqual([{ path: `fields.${"n".repeat(100)}`, message: "field names are at most 100 characters" }]);
    const bad = await expectError(
      await ownerApi.postForm("contact", {
        body: new URLSearchParams([
          ["$where", "1"],
          ["user.email", "a"],
          ["ok", "nul\u0000"],
        ]),
      }),
      400,
      "invalid submission",
    );
    expect(bad.issues).toEqual([
      { path: "fields.$where", message: 'field names cannot start with "$"' },
      { path: "fields.user.email", message: 'field names cannot contain "."' },
      { path: "fields.ok", message: "text cannot contain the NUL character" },
    ]);
    const nested = await expectError(await ownerApi.postForm("contact", json({ profile: { "a.b": 1 } })), 400);
    expect(nested.issues).toEqual([{ path: "fields.profile.a.b", message: 'field names cannot contain "."' }]);
  });
});

describe("rate limit", () => {
  it("takes 60 submissions a minute per client IP and form, then 429 with Retry-After", async ({ ownerApi }) => {
    // A sliding window weighs the previous minute's count down as time passes, so a run that
    // crosses a minute boundary may see a few extra posts pass; never fewer than 60.
    let allowed = 0;
    let limited: Response | null = null;
    for (let i = 0; i < 150 && !limited; i++) {
      const response = await ownerApi.postForm("busy", { body: new URLSearchParams({ i: String(i) }), headers: { "x-forwarded-for": `203.0.113.${i % 250}` } });
      if (response.status === 429) limited = response;
      else {
        expect(response.status).toBe(202);
        allowed++;
      }
    }
    expect(allowed).toBeGreaterThanOrEqual(60);
    expect(allowed).toBeLessThan(120);
    expect(limited).not.toBeNull();
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(await limited!.json()).toEqual({ error: "rate limit exceeded", code: "rate_limited" });
    // Another form keeps its own budget.
    expect((await ownerApi.postForm("contact", json({ after: "limit" }))).status).toBe(202);
  });
});

describe("the submissions route", () => {
  it("answers 400 for an invalid query", async ({ project, ownerApi, contactId }) => {
    const keyApi = ownerApi.with({ credentials: { key: await project.keyFor(["automations.read"]) } });
    for (const query of ["?before=exe_0000", "?limit=0", "?limit=101", `?search=${"s".repeat(201)}`]) {
      const response = await keyApi.fetch(`/automations/${contactId}/submissions${query}`);
      await expectError(response, 400, "invalid query");
    }
  });
});
