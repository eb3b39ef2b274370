import http from "node:http";

/**
 * Streams NDJSON lines to the import route (`POST /api/projects/:projectId/records/:schema/import`,
 * `Content-Type: application/x-ndjson`) in one chunked request, writing as fast as the server reads:
 * the lines are generated as they are sent, so a million records never sit in memory.
 */

export interface ImportAnswer {
  imported: number;
  failedCount?: number;
  failed: Array<{ line: number; issues: unknown }>;
}

export interface StreamedImport {
  answer: ImportAnswer;
  lines: number;
  bytes: number;
  seconds: number;
}

/** Writes are gathered into chunks of about this size (one socket write each). */
const CHUNK_CHARS = 256 * 1024;

let activeRequest: http.ClientRequest | null = null;

/** Aborts an import in progress (Ctrl-C). */
export function stopActiveImport(): void {
  activeRequest?.destroy(new Error("stopped"));
}

export class ImportRouteMissing extends Error {}

export function importPath(projectId: string, schema: string): string {
  return `/api/projects/${projectId}/records/${schema}/import`;
}

export function streamImport(options: { baseUrl: string; projectId: string; schema: string; key: string; lines: Iterable<string> }): Promise<StreamedImport> {
  const started = performance.now();
  const url = new URL(importPath(options.projectId, options.schema), options.baseUrl);
  let lines = 0;
  let bytes = 0;
  return new Promise<StreamedImport>((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      headers: { authorization: `Bearer ${options.key}`, "content-type": "application/x-ndjson" },
    });
    activeRequest = request;
    let answered = false;
    request.on("error", (error) => {
      activeRequest = null;
      reject(error);
    });
    request.on("response", (response) => {
      answered = true;
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("error", reject);
      response.on("end", () => {
        activeRequest = null;
        const seconds = (performance.now() - started) / 1000;
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // Next's 404 page: the route is not in this build
        }
        if (response.statusCode === 404 && json === null) return reject(new ImportRouteMissing(`${url.pathname} answered 404 (not JSON): the import route is not in this build`));
        if (!response.statusCode || response.statusCode >= 300 || json === null || typeof (json as ImportAnswer).imported !== "number") {
          return reject(new Error(`${url.pathname} answered ${response.statusCode} after ${lines} lines: ${text.slice(0, 500)}`));
        }
        resolve({ answer: json as ImportAnswer, lines, bytes, seconds });
      });
    });

    const waitUntilDrained = () =>
      new Promise<void>((drained) => {
        const done = () => {
          request.off("drain", done);
          request.off("close", done);
          drained();
        };
        request.once("drain", done);
        request.once("close", done);
      });

    void (async () => {
      let chunk = "";
      for (const line of options.lines) {
        // The server answered early (an error): stop sending.
        if (answered || request.destroyed) return;
        chunk += `${line}\n`;
        lines++;
        if (chunk.length >= CHUNK_CHARS) {
          bytes += Buffer.byteLength(chunk);
          const flushed = request.write(chunk);
          chunk = "";
          if (!flushed) await waitUntilDrained();
        }
      }
      bytes += Buffer.byteLength(chunk);
      request.end(chunk);
    })().catch((error: unknown) => request.destroy(error instanceof Error ? error : new Error(String(error))));
  });
}
