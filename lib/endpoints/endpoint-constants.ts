/**
 * The endpoint contract's constants (DESIGN.md section 5, typed inputs) without its zod schemas
 * (endpoint-definition.ts, endpoint-input.ts), so that the editor's first scripts need no zod.
 */
export const ENDPOINT_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export const ENDPOINT_AUTH_MODES = ["public", "api_key", "end_user"] as const;
export const RESPONSE_CONTENT_TYPES = ["application/json", "text/html", "application/xml", "text/plain", "text/csv"] as const;
export const MAX_CACHE_SECONDS = 3600;

export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];
export type EndpointAuthMode = (typeof ENDPOINT_AUTH_MODES)[number];
export type ResponseContentType = (typeof RESPONSE_CONTENT_TYPES)[number];

export const SLUG_PATTERN = /^[a-z0-9-]{1,64}$/;

export const INPUT_FIELD_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;
export type InputFieldType = (typeof INPUT_FIELD_TYPES)[number];
export const INPUT_LOCATIONS = ["query", "body"] as const;
export type InputLocation = (typeof INPUT_LOCATIONS)[number];

export const INPUT_LIMITS = {
  /** Declared fields per location (query, body). */
  maxFields: 50,
  maxEnumValues: 50,
  maxEnumStringLength: 200,
  /** A refused call lists at most this many issues. */
  maxIssues: 20,
} as const;

/** Letters, digits, `_` and `-`, starting with a letter: usable as `{{body.<name>}}` and in a query string. */
export const INPUT_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
