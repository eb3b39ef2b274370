import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createResendTransport } from "./resend-transport";

interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

type Reply = { status: number; body: unknown } | "hang";

/** A loopback stand-in for the Resend API that records requests and answers as told. */
let server: http.Server;
let baseUrl: string;
const requests: RecordedRequest[] = [];
let nextReply: Reply = { status: 200, body: { id: "resend-id-1" } };
const hanging = new Set<http.ServerResponse>();

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: text ? JSON.parse(text) : undefined });
      if (nextReply === "hang") {
        hanging.add(response);
        return;
      }
      response.writeHead(nextReply.status, { "content-type": "application/json" });
      response.end(JSON.stringify(nextReply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  hanging.forEach((response) => response.destroy());
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
  nextReply = { status: 200, body: { id: "resend-id-1" } };
});

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const apiKey = "re_test_0123456789abcdef";

describe("Resend transport", () => {
  it("posts the message to /emails with the API key and returns Resend's id", async () => {
    const transport = createResendTransport({ apiKey, from: "Shop <shop@example.test>", baseUrl });
    expect(transport.kind).toBe("resend");
    const result = await transport.send({
      to: ["reader@example.test", "Second Reader <second@example.test>"],
      subject: "Your order",
      html: "<p>Thanks</p>",
      text: "Thanks",
      replyTo: "support@example.test",
      headers: { "X-Order": "1001" },
    });
    expect(result).toEqual({ messageId: "resend-id-1" });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/emails");
    expect(request?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(request?.body).toEqual({
      from: "Shop <shop@example.test>",
      to: ["reader@example.test", "Second Reader <second@example.test>"],
      subject: "Your order",
      html: "<p>Thanks</p>",
      text: "Thanks",
      reply_to: "support@example.test",
      headers: { "X-Order": "1001" },
    });
  });

  it("quotes display names that need it", async () => {
    const transport = createResendTransport({ apiKey, from: "shop@example.test", baseUrl });
    await transport.send({ from: '"Doe, Jane" <jane@example.test>', to: ["a@example.test"], subject: "s", text: "t" });
    expect(requests[0]?.body).toMatchObject({ from: '"Doe, Jane" <jane@example.test>', to: ["a@example.test"] });
  });

  it("validates before calling the API", async () => {
    const transport = createResendTransport({ apiKey, from: "shop@example.test", baseUrl });
    const error = await failureOf(transport.send({ to: ["a@example.test", "not an address"], subject: "s\n", text: "t" }));
    expect(error.code).toBe("validation_failed");
    expect(error.issues?.map((issue) => issue.path).sort()).toEqual(["subject", "to.1"]);
    expect(requests).toHaveLength(0);
  });

  it("maps a refused message to unavailable with Resend's reason", async () => {
    nextReply = { status: 422, body: { statusCode: 422, name: "validation_error", message: "The example.test domain is not verified." } };
    const transport = createResendTransport({ apiKey, from: "shop@example.test", baseUrl });
    const error = await failureOf(transport.send({ to: ["a@example.test"], subject: "s", text: "t" }));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("Resend refused the message (422): The example.test domain is not verified.");
  });

  it("maps a rejected API key without showing it", async () => {
    nextReply = { status: 401, body: { statusCode: 401, name: "missing_api_key", message: `API key ${apiKey} is invalid` } };
    const transport = createResendTransport({ apiKey, from: "shop@example.test", baseUrl });
    const error = await failureOf(transport.send({ to: ["a@example.test"], subject: "s", text: "t" }));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("Resend rejected the API key (401)");
  });

  it("maps an unreachable API to unavailable", async () => {
    const transport = createResendTransport({ apiKey, from: "shop@example.test", baseUrl: "http://127.0.0.1:1" });
    const error = await failureOf(transport.send({ to: ["a@example.test"], subject: "s", text: "t" }));
    expect(error.code).toBe("unavailable");
    expect(error.message).toBe("could not reach the Resend API");
  });

  it("times out when the API never answers, and honours the abort signal", async () => {
    nextReply = "hang";
    const transport = createResendTransport({ apiKey, from: "shop@example.test", baseUrl, timeoutMs: 300 });
    const started = Date.now();
    const timedOut = await failureOf(transport.send({ to: ["a@example.test"], subject: "s", text: "t" }));
    expect(timedOut.code).toBe("timeout");
    expect(timedOut.message).toBe("sending mail through Resend did not finish within 300 ms");
    expect(Date.now() - started).toBeLessThan(3_000);

    const patient = createResendTransport({ apiKey, from: "shop@example.test", baseUrl });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const cutOff = await failureOf(patient.send({ to: ["a@example.test"], subject: "s", text: "t" }, { signal: controller.signal }));
    expect(cutOff.code).toBe("timeout");
    expect(cutOff.message).toBe("sending mail through Resend was cut off: the run's time budget ran out");
    expect(requests).toHaveLength(2);
  });
});
