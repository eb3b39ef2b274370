import type { IncomingMessage, ServerResponse } from "node:http";
import { markSocketIp } from "@/lib/http/client-ip";
import { INVOCATION_PATH, routeByOrigin } from "@/lib/http/invocation-origin";
import { INVOCATION_SECURITY_HEADERS } from "@/lib/http/security-headers";
import { matchRecordsApiCall } from "./records-api";
import { STATIC_ASSET_PREFIX, type AssetHandler } from "./serve-precompressed-asset";

type NodeListener = (req: IncomingMessage, res: ServerResponse) => unknown;

const PATH_PREFIX = "/api/projects/";
const NOT_FOUND_BODY = JSON.stringify({ error: "not found" });
const NOT_FOUND_HEADERS = Object.freeze({ "content-type": "application/json; charset=utf-8", ...INVOCATION_SECURITY_HEADERS });

/** Next reads `headers`, the invocation adapter reads `rawHeaders`: the Cookie header leaves both. */
function dropCookies(req: IncomingMessage): void {
  if (req.headers.cookie === undefined) return;
  delete req.headers.cookie;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === "cookie") raw.splice(i, 2);
  }
}

/**
 * The production server's dispatch (server/start.ts): invocation paths go straight to the invocation
 * handler, records API calls with an API key straight to their route handlers (server/records-api.ts),
 * the build's scripts and stylesheets to their brotli copies where the browser accepts them, every
 * other path to Next. With a separate invocation origin (INVOCATION_URL), that host
 * serves only its public paths, without the Cookie header; anything else there is answered 404
 * here, before Next (lib/http/invocation-origin.ts).
 */
export function createRequestRouter(options: {
  handleInvocation: NodeListener;
  handleRecordsApi: NodeListener;
  handleNext: NodeListener;
  /** The build's brotli copies (server/serve-precompressed-asset.ts); returns false where Next answers. */
  handleStaticAsset?: AssetHandler;
  invocationHost: string | null;
}): NodeListener {
  const { handleInvocation, handleRecordsApi, handleNext, handleStaticAsset, invocationHost } = options;
  return (req, res) => {
    // Rate limits read the client IP from here unless TRUSTED_PROXY names a proxy header; a caller's own value is overwritten.
    markSocketIp(req.headers, req.socket.remoteAddress);
    const url = req.url ?? "/";
    const path = url.split("?")[0]!;
    if (invocationHost !== null) {
      const route = routeByOrigin(req.headers.host, path, invocationHost);
      if (route === "not_found") {
        res.writeHead(404, NOT_FOUND_HEADERS);
        res.end(NOT_FOUND_BODY);
        return;
      }
      if (route === "invocation_origin") dropCookies(req);
    }
    if (url.startsWith(PATH_PREFIX) && INVOCATION_PATH.test(path)) {
      void handleInvocation(req, res);
      return;
    }
    if (url.startsWith(PATH_PREFIX) && matchRecordsApiCall(req.method ?? "GET", path, req.headers.authorization)) {
      void handleRecordsApi(req, res);
      return;
    }
    if (handleStaticAsset !== undefined && url.startsWith(STATIC_ASSET_PREFIX) && handleStaticAsset(req, res)) return;
    void handleNext(req, res);
  };
}
