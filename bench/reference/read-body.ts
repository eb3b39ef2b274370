import type http from "node:http";

/** The references' request body limit, the same as the app's for invocations. */
export const MAX_BODY_BYTES = 100 * 1024;

/** A request body as text, or null (the request destroyed) past MAX_BODY_BYTES. */
export function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
