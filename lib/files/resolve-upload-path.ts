import { FIELD_LIMITS } from "@/lib/schemas/field-limits";
import { effectiveFields, type FieldDefinition, type FieldOfType, type SchemaDefinition } from "@/lib/schemas/schema-definition";

/** The `__component` key of a dynamic-zone entry (lib/records-service/validate-record.ts). */
const ENTRY_COMPONENT_KEY = "__component";

/** Never field names, and never walked into: a path naming them could reach an object's prototype. */
const FORBIDDEN_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);
const INDEX = /^(0|[1-9]\d{0,5})$/;

export interface ResolveUploadPathOptions {
  schema: Pick<SchemaDefinition, "name" | "kind" | "fields">;
  /** The project's schemas: components are found here by name. */
  components: ReadonlyMap<string, Pick<SchemaDefinition, "name" | "fields">>;
  /** A value path as the record's validation issues name it: `address.photo`, `blocks.2.image`. */
  path: string;
  /**
   * The record values sent with the upload. Given: the path must lead through the component or
   * entry actually present, and a dynamic-zone entry's own component decides its fields. Absent
   * (the values have not arrived yet): every component the zone allows is a candidate.
   */
  values?: Record<string, unknown>;
}

export type ResolvedUploadPath =
  | {
      ok: true;
      /** The file fields the path can name (exactly one when `values` were given). */
      fields: FieldOfType<"file">[];
      /** The path without its list positions (`blocks.image`): what the stored file is marked with. */
      key: string;
    }
  | { ok: false; message: string };

interface Scope {
  fields: readonly FieldDefinition[];
  /** The object these fields are read from, when values were given. */
  value?: unknown;
  /** Where the fields come from, for messages. */
  owner: string;
}

const isList = (field: FieldDefinition): boolean => field.type === "dynamic_zone" || (field.type === "component" && field.repeatable === true);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Which file field a multipart part's name addresses inside a component or dynamic zone: each
 * segment is a field of the schema or component reached so far, a list position follows every
 * repeatable component and dynamic zone, and the last segment is a file field. Answers why not
 * otherwise (the caller reports it at the path itself, where the field's issues land). Paths of one
 * segment are top-level fields and are not this function's concern.
 */
export function resolveUploadPath(options: ResolveUploadPathOptions): ResolvedUploadPath {
  const segments = options.path.split(".");
  if (segments.some((segment) => FORBIDDEN_SEGMENTS.has(segment))) return { ok: false, message: "is not a field path: __proto__, constructor and prototype are never walked into" };
  if (segments.length < 2 || segments.some((segment) => segment === ""))
    return { ok: false, message: `is not a path to a file field inside a component of ${options.schema.name}` };
  const withValues = options.values !== undefined;
  let scopes: Scope[] = [{ fields: effectiveFields(options.schema), value: options.values, owner: `schema ${options.schema.name}` }];
  const key: string[] = [];
  let index = 0;
  for (;;) {
    const name = segments[index]!;
    const found = scopes.flatMap((scope) => {
      const field = scope.fields.find((candidate) => candidate.name === name);
      return field ? [{ field, value: isObject(scope.value) && Object.hasOwn(scope.value, name) ? scope.value[name] : undefined }] : [];
    });
    if (found.length === 0) return { ok: false, message: `is not a file field: ${scopes.map((scope) => scope.owner).join(" or ")} has no field "${name}"` };
    key.push(name);
    index += 1;
    const where = segments.slice(0, index).join(".");
    if (index === segments.length) {
      const files = found.map(({ field }) => field).filter((field): field is FieldOfType<"file"> => field.type === "file");
      if (files.length === 0) return { ok: false, message: `is not a file field (${where} is a ${found[0]!.field.type} field)` };
      return { ok: true, fields: files, key: key.join(".") };
    }
    // Without values a zone's components are all candidates, and a name may be a list in one and a
    // single group in another: the first container's shape decides where the position goes.
    const containers = found.filter((entry) => entry.field.type === "component" || entry.field.type === "dynamic_zone");
    if (containers.length === 0) return { ok: false, message: `is not a file field (${where} is a ${found[0]!.field.type} field, not a component or dynamic zone)` };
    const shape = isList(containers[0]!.field);
    const next: Scope[] = [];
    let position: string | undefined;
    if (shape) {
      position = segments[index]!;
      index += 1;
    }
    for (const { field, value } of containers) {
      if (field.type !== "component" && field.type !== "dynamic_zone") continue;
      if (isList(field) !== shape) continue;
      let item: unknown = value;
      if (position !== undefined) {
        const limit = Math.min(("max" in field ? field.max : undefined) ?? FIELD_LIMITS.items, FIELD_LIMITS.items);
        if (!INDEX.test(position) || Number(position) >= limit) {
          return { ok: false, message: `is not a file field: ${where} is a list of at most ${limit} items, so "${position}" is no position in it` };
        }
        if (withValues) {
          if (!Array.isArray(value) || Number(position) >= value.length) {
            return { ok: false, message: `has no item to hold it: ${where} holds ${Array.isArray(value) ? value.length : 0} items in the values sent` };
          }
          item = value[Number(position)];
        }
      }
      if (index === segments.length) return { ok: false, message: `is not a file field (${where}.${position} is an item of ${where})` };
      const at = segments.slice(0, index).join(".");
      if (withValues && !isObject(item)) return { ok: false, message: `has no item to hold it: ${at} is empty in the values sent` };
      const names = field.type === "component" ? [field.component] : withValues ? [String((item as Record<string, unknown>)[ENTRY_COMPONENT_KEY])] : field.components;
      for (const componentName of names) {
        const component = field.type === "dynamic_zone" && !field.components.includes(componentName) ? undefined : options.components.get(componentName);
        if (component) next.push({ fields: component.fields, value: item, owner: `component ${component.name}` });
        else if (withValues) return { ok: false, message: `has no item to hold it: ${at} names no component ${where} allows` };
      }
    }
    if (next.length === 0) return { ok: false, message: `is not a file field: no component of ${where} is defined` };
    scopes = next;
  }
}
