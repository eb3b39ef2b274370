import { getRequestListener } from "@hono/node-server";
import type { JsonAnswer } from "@/lib/http/with-project-auth";

/**
 * The Response class of @hono/node-server: a Response whose status, headers and string body the
 * adapter writes to the socket as given, where a web Response must be read back through its stream
 * (a copy, a reader and several promises per answer). The adapter only offers it by installing it
 * as the global Response (`overrideGlobalObjects`), which Next's route handlers cannot take, so it
 * is installed and the globals are put back in one synchronous step: nothing else runs in between,
 * and only the invocation handler (InvocationHooks.Response) and the records fast path
 * (adapterJsonAnswer) are handed the class.
 */
export function adapterResponseClass(): typeof Response {
  const saved = {
    Request: Object.getOwnPropertyDescriptor(globalThis, "Request"),
    Response: Object.getOwnPropertyDescriptor(globalThis, "Response"),
  };
  if (!saved.Request || !saved.Response) throw new Error("the global Request and Response are missing");
  getRequestListener(() => new Response(null), { overrideGlobalObjects: true });
  const lightweight = globalThis.Response;
  Object.defineProperty(globalThis, "Request", saved.Request);
  Object.defineProperty(globalThis, "Response", saved.Response);
  return lightweight;
}

/** Response.json's answer, built with the adapter's Response class (the records fast path's routes). */
export function adapterJsonAnswer(responseClass: typeof Response): JsonAnswer {
  return (body, init) => new responseClass(JSON.stringify(body), { status: init?.status, headers: { "content-type": "application/json", ...init?.headers } });
}
