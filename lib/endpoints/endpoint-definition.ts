import { z } from "zod";
import { ENDPOINT_AUTH_MODES, ENDPOINT_METHODS, MAX_CACHE_SECONDS, RESPONSE_CONTENT_TYPES, SLUG_PATTERN } from "./endpoint-constants";
import { endpointInputSpecSchema } from "./endpoint-input";

/**
 * A custom endpoint as the management API reads and writes it (docs/DESIGN.md section 5). Steps are
 * validated by the flow engine's validateFlow; the checks that need the project's schemas (schema
 * exists, relation fields exist, authSchema exists) run in validate-endpoint.ts.
 */
export { ENDPOINT_AUTH_MODES, ENDPOINT_METHODS, MAX_CACHE_SECONDS, RESPONSE_CONTENT_TYPES, SLUG_PATTERN } from "./endpoint-constants";
export type { EndpointAuthMode, EndpointMethod, ResponseContentType } from "./endpoint-constants";
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/**
 * Headers the platform owns: cookies are never set by endpoints, framing and connection headers are
 * the server's, and CORS comes from allowedOrigins. The security headers are the platform's too: the
 * sandbox and nosniff of every answer (lib/http/security-headers.ts) must not be replaced or
 * weakened, and the policies that bind the whole host (HSTS, Clear-Site-Data, reporting, Alt-Svc,
 * service worker scope) are not an endpoint's to set on an origin it shares with others.
 */
const RESERVED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  "set-cookie",
  "set-cookie2",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "host",
  "trailer",
  "content-security-policy",
  "content-security-policy-report-only",
  "x-content-type-options",
  "x-frame-options",
  "x-xss-protection",
  "strict-transport-security",
  "permissions-policy",
  "feature-policy",
  "clear-site-data",
  "service-worker-allowed",
  "nel",
  "report-to",
  "reporting-endpoints",
  "alt-svc",
]);

/** True for a header the platform owns (above) or a CORS header (from allowedOrigins); `name` in lower case. */
export function isReservedResponseHeader(name: string): boolean {
  return RESERVED_RESPONSE_HEADERS.has(name) || name.startsWith("access-control-");
}

export const originSchema = z.string().refine(
  (value) => {
    if (value === "*") return true;
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "");
    } catch {
      return false;
    }
  },
  { message: 'must be "*" or an origin such as https://shop.example (scheme, host and optional port, no path)' },
);

export const endpointResponseSchema = z
  .object({
    status: z.number().int().min(200).max(599).default(200),
    contentType: z.enum(RESPONSE_CONTENT_TYPES).default("application/json"),
    body: z.string().max(100_000).default(""),
    headers: z
      .record(z.string(), z.string().max(8_000))
      .default({})
      .superRefine((headers, ctx) => {
        for (const name of Object.keys(headers)) {
          if (!HEADER_NAME.test(name)) ctx.addIssue({ code: "custom", path: [name], message: "is not a valid header name" });
          else if (isReservedResponseHeader(name.toLowerCase())) {
            ctx.addIssue({ code: "custom", path: [name], message: `the header ${name.toLowerCase()} cannot be set by an endpoint` });
          }
        }
        if (Object.keys(headers).length > 30) ctx.addIssue({ code: "custom", path: [], message: "at most 30 headers" });
      }),
  })
  .strict();

const endpointFields = {
  name: z.string().trim().min(1, "a name is required").max(100),
  method: z.enum(ENDPOINT_METHODS),
  slug: z.string().regex(SLUG_PATTERN, "must be 1–64 lowercase letters, digits or dashes"),
  auth: z.enum(ENDPOINT_AUTH_MODES).default("public"),
  authSchema: z.string().min(1).max(64).nullable().default(null),
  allowedOrigins: z.array(originSchema).max(50).default([]),
  group: z.string().trim().max(80).nullable().default(null),
  cacheSeconds: z.number().int().min(0).max(MAX_CACHE_SECONDS, `at most ${MAX_CACHE_SECONDS} seconds`).default(0),
  steps: z.array(z.unknown()).default([]),
  response: endpointResponseSchema.default({ status: 200, contentType: "application/json", body: "", headers: {} }),
  enabled: z.boolean().default(true),
  /** Typed query and body checks (./endpoint-input.ts); null: no checks. */
  input: endpointInputSpecSchema.nullable().default(null),
};

type EndpointShape = z.infer<z.ZodObject<typeof endpointFields>>;

function crossFieldRules(endpoint: Partial<EndpointShape>, ctx: z.RefinementCtx): void {
  if (endpoint.cacheSeconds && (endpoint.auth !== "public" || endpoint.method !== "GET")) {
    ctx.addIssue({ code: "custom", path: ["cacheSeconds"], message: "only public GET endpoints can cache responses" });
  }
  if (endpoint.auth === "end_user" && !endpoint.authSchema) {
    ctx.addIssue({ code: "custom", path: ["authSchema"], message: "name the auth schema whose end users may call this endpoint" });
  }
  if (endpoint.auth !== undefined && endpoint.auth !== "end_user" && endpoint.authSchema) {
    ctx.addIssue({ code: "custom", path: ["authSchema"], message: "is only used with auth end_user" });
  }
  if (endpoint.allowedOrigins?.includes("*") && endpoint.allowedOrigins.length > 1) {
    ctx.addIssue({ code: "custom", path: ["allowedOrigins"], message: '"*" already allows every origin: list nothing else with it' });
  }
}

export const endpointInputSchema = z.object(endpointFields).strict().superRefine(crossFieldRules);

/** PATCH bodies: every field optional; cross-field rules run on the merged result. */
export const endpointPatchSchema = z.object(endpointFields).partial().strict();

export type EndpointInput = z.infer<typeof endpointInputSchema>;

export interface EndpointDefinition extends EndpointInput {
  id: string;
  projectId: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}
