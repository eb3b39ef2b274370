import { newId } from "@/lib/ids";

/** The header a request's id travels in, both ways. */
export const REQUEST_ID_HEADER = "x-request-id";

// What a proxy's id may look like (UUIDs, hex, ULIDs, `abc-123.4`); anything else could forge log fields.
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id for log lines: the `X-Request-Id` a proxy or load balancer in front set (so a
 * line can be matched with its access log), when well-formed; otherwise a fresh `req_…`. Minted only
 * when something is logged, so requests that succeed pay nothing for it.
 */
export function requestIdOf(request: Request): string {
  const given = request.headers.get(REQUEST_ID_HEADER);
  return given !== null && WELL_FORMED_REQUEST_ID.test(given) ? given : newId("request");
}
