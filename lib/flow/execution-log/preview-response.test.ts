import { describe, expect, it } from "vitest";
import { REDACTED } from "./redact";
import { previewResponse, RESPONSE_HEADER_VALUE_MAX_CHARS, RESPONSE_HEADERS_MAX } from "./preview-response";

const JSON_TYPE = "application/json; charset=utf-8";

describe("previewResponse", () => {
  it("keeps the status, the content type first and the owner's headers, masking credentials and secret-named ones", () => {
    const preview = previewResponse({
      status: 201,
      contentType: JSON_TYPE,
      headers: { "X-Trace": "abc", "set-cookie": "sid=1", authorization: "Basic dXNlcjpwYXNz", "x-session-token": "t", link: "see Bearer abc.def", "content-type": "text/html" },
      body: '{"ok": true}',
    });
    expect(preview).toEqual({
      status: 201,
      headers: {
        "content-type": JSON_TYPE,
        "x-trace": "abc",
        "set-cookie": REDACTED,
        authorization: REDACTED,
        "x-session-token": REDACTED,
        link: `see Bearer ${REDACTED}`,
      },
      // Nothing in it could be secret-named: shown as it was sent, without a parse on the call's path.
      body: '{"ok": true}',
    });
    expect(Object.keys(preview.headers)[0]).toBe("content-type");
  });

  it("caps each header value, the number of headers and their total size, and says so", () => {
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`x-h${index}`, "v".repeat(index === 0 ? 2_000 : 10)]));
    const preview = previewResponse({ status: 200, contentType: JSON_TYPE, headers: many, body: "" });
    expect(preview.headers["x-h0"]).toBe(`${"v".repeat(RESPONSE_HEADER_VALUE_MAX_CHARS)}…`);
    expect(Object.keys(preview.headers).length).toBeLessThanOrEqual(RESPONSE_HEADERS_MAX);
    expect(preview.headersCapped).toBe(true);
    expect(preview.body).toBeNull();
    const total = Object.entries(preview.headers).reduce((sum, [name, value]) => sum + name.length + value.length, 0);
    expect(total).toBeLessThanOrEqual(4_000);
  });

  it("redacts secret-named fields of a JSON body and cuts any body at the preview cap", () => {
    expect(previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body: '{"user": {"password": "p", "name": "Ann"}}' }).body).toBe(
      `{"user":{"password":"${REDACTED}","name":"Ann"}}`,
    );
    const html = previewResponse({ status: 200, contentType: "text/html; charset=utf-8", headers: {}, body: `<p>Bearer abc</p>${"x".repeat(5_000)}` }).body!;
    expect(html.startsWith(`<p>Bearer ${REDACTED}</p>`)).toBe(true);
    expect(html.endsWith("… (cut at 2000 characters)")).toBe(true);
    // A JSON body too large to parse on the call's path is cut as text.
    const large = previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body: JSON.stringify({ rows: "r".repeat(100_000) }) }).body!;
    expect(large.length).toBeLessThan(2_100);
    // A name spelled with escapes is still found: any \u escape sends the body through the parse.
    expect(previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body: '{"pass\\u0077ord": "p", "n": 1}' }).body).toBe(`{"password":"${REDACTED}","n":1}`);
    // A body with no secret-named field is cut as sent, credentials in its text still hidden.
    const plain = previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body: `{"note": "Bearer abc", "rows": "${"r".repeat(3_000)}"}` }).body!;
    expect(plain.startsWith(`{"note": "Bearer ${REDACTED}", "rows": "rrr`)).toBe(true);
    expect(plain.endsWith("… (cut at 2000 characters)")).toBe(true);
    // A body that says JSON but is not is shown as text.
    expect(previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body: "not json" }).body).toBe("not json");
  });

  it("previews the value a JSON body was written from as the parsed body would be, through the preview it is given", () => {
    const rows = Array.from({ length: 40 }, (_, index) => ({ id: `r${index}`, title: "cannot reset my password", token: `t${index}`, note: "Bearer abc" }));
    const body = JSON.stringify(rows);
    const parsed = previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body }).body;
    expect(previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body, bodyValue: rows }).body).toBe(parsed);
    expect(parsed).toContain(`"token":"${REDACTED}"`);
    expect(parsed).toContain(`"note":"Bearer ${REDACTED}"`);
    // The caller's preview is used for the value (write-execution-log.ts reuses a step output's).
    expect(previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body, bodyValue: rows }, () => "shared").body).toBe("shared");
    // A null value keeps the body's text; a body that is not JSON never uses the value.
    expect(previewResponse({ status: 200, contentType: JSON_TYPE, headers: {}, body: "null", bodyValue: null }).body).toBe("null");
    expect(previewResponse({ status: 200, contentType: "text/plain; charset=utf-8", headers: {}, body: "plain", bodyValue: rows }).body).toBe("plain");
  });
});
