import { AppError, validationError } from "@/lib/errors";
import { SCHEMA_NAME_PATTERN } from "@/lib/schemas/schema-definition";
import type { StoredSchema } from "@/lib/schemas/stored-schema";

/**
 * A name no schema can have is simply not found; checked before any query (a NUL byte in a
 * platform-database parameter would otherwise be a driver error, a 500).
 */
export function assertPossibleSchemaName(name: string): void {
  if (!SCHEMA_NAME_PATTERN.test(name)) throw new AppError("not_found", "no schema by that name in this project");
}

/** `?name=true|false`; absent → false. Anything else is a 400 naming the parameter. */
export function readFlag(params: URLSearchParams, name: string): boolean {
  const values = params.getAll(name);
  if (values.length === 0) return false;
  if (values.length > 1 || (values[0] !== "true" && values[0] !== "false")) {
    throw new AppError("bad_request", `${name}: must be true or false`, { issues: [{ path: name, message: "must be true or false" }] });
  }
  return values[0] === "true";
}

export function assertKnownParameters(params: URLSearchParams, known: readonly string[]): void {
  const unknown = [...new Set(params.keys())].filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new AppError("bad_request", `unknown query parameter ${unknown.join(", ")}`, {
      issues: unknown.map((key) => ({ path: key, message: `is not a known query parameter (${known.join(", ") || "none"})` })),
    });
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads a schema PATCH body. The body is the whole new definition — `fields` is the complete list
 * (a field left out is removed) — because a partial field list could not say what to remove.
 * `name` and `kind` may be left out (they cannot change anyway); a body echoed from GET is
 * accepted as is: `id`, `createdAt` and `updatedAt` are ignored and `version` is the version the
 * caller edited (409 when someone saved meanwhile).
 */
export function readSchemaPatch(body: unknown, current: StoredSchema): { definition: Record<string, unknown>; expectedVersion?: number } {
  if (!isPlainObject(body)) throw validationError("the body must be a schema definition (a JSON object)", [{ path: "", message: "must be a JSON object" }]);
  const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, version, ...definition } = body;
  if (version !== undefined && (typeof version !== "number" || !Number.isSafeInteger(version) || version < 1)) {
    throw validationError("version must be the schema version you edited", [{ path: "version", message: "must be a whole number of at least 1" }]);
  }
  return {
    definition: { name: current.name, kind: current.kind, ...definition },
    ...(version === undefined ? {} : { expectedVersion: version }),
  };
}
