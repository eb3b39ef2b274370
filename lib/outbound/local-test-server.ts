import http from "node:http";
import type { AddressInfo } from "node:net";

/** An HTTP server on a loopback address for outbound tests: counts every TCP connection it accepts. */
export interface LocalTestServer {
  port: number;
  host: string;
  /** TCP connections accepted so far (the proof that a refused request never reached the server). */
  connections: () => number;
  /** Requests seen so far: method, url and headers. */
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  close: () => Promise<void>;
}

export async function startLocalTestServer(
  handler: http.RequestListener = (_request, response) => response.end("ok"),
  options: { host?: string; port?: number } = {},
): Promise<LocalTestServer> {
  const host = options.host ?? "127.0.0.1";
  const server = http.createServer();
  let connections = 0;
  const requests: LocalTestServer["requests"] = [];
  server.on("connection", () => {
    connections += 1;
  });
  server.on("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    const entry = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: "" };
    requests.push(entry);
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      entry.body = Buffer.concat(chunks).toString("utf8");
    });
    handler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    host,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
