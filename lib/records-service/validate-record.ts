import { validationError, type AppError, type ErrorIssue } from "@/lib/errors";
import { checkFieldValue, copyJsonValue, FORBIDDEN_KEY_MESSAGE, isForbiddenKey, type LeafFieldDefinition } from "@/lib/schemas/check-field-value";
import { FIELD_LIMITS } from "@/lib/schemas/field-limits";
import { effectiveFields, RESERVED_FIELD_NAMES, type FieldDefinition, type FieldOfType, type SchemaDefinition } from "@/lib/schemas/schema-definition";

export type RecordValidationMode = "create" | "update";

export interface ValidateRecordInputOptions {
  schema: SchemaDefinition;
  /** Where component and dynamic-zone fields find their components by name (the project's schemas will do). */
  components: readonly SchemaDefinition[];
  input: unknown;
  /**
   * create: every field is checked, absent ones get their default (or null, or [] for lists),
   * required ones must be there. update: only the fields present in `input` are checked and
   * answered (a partial change); a component or dynamic zone given on update replaces the old
   * value whole, so its nested fields are checked as on create.
   */
  mode: RecordValidationMode;
}

/** Key of a dynamic-zone item naming its component. */
export const COMPONENT_KEY = "__component";

const TEXT_TYPES = new Set(["string", "text", "richtext", "json"]);
const SERVER_SET_FIELDS = new Set<string>(RESERVED_FIELD_NAMES);
const AUTH_SECRET_FIELDS = new Set(["password", "passwordHash"]);

type Path = readonly (string | number)[];
/** The schema or component whose fields an object holds (for messages). */
type Owner = { kind: SchemaDefinition["kind"]; name: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));

class RecordValidator {
  readonly issues: ErrorIssue[] = [];
  private readonly components: ReadonlyMap<string, SchemaDefinition>;

  constructor(components: readonly SchemaDefinition[]) {
    this.components = new Map(components.filter((schema) => schema.kind === "component").map((schema) => [schema.name, schema]));
  }

  issue(path: Path, message: string): void {
    this.issues.push({ path: path.join("."), message });
  }

  /** The value an absent or empty list-or-scalar field takes. */
  private emptyValue(field: FieldDefinition): unknown {
    if (field.type === "relation" && field.many) return [];
    if (field.type === "component" && field.repeatable) return [];
    if (field.type === "dynamic_zone") return [];
    return null;
  }

  private isEmpty(field: FieldDefinition, value: unknown): boolean {
    if (value === null) return true;
    // An empty form input means "no value", except where "" is itself a value.
    if (value === "") return !TEXT_TYPES.has(field.type);
    return false;
  }

  /** Checks an object against fields; `allowed` names extra keys the caller handles (such as __component). */
  object(
    fields: readonly FieldDefinition[],
    input: Record<string, unknown>,
    path: Path,
    mode: RecordValidationMode,
    owner: Owner,
    allowed: ReadonlySet<string> = new Set(),
  ): Record<string, unknown> {
    const byName = new Map(fields.map((field) => [field.name, field]));
    for (const key of Object.keys(input)) {
      if (isForbiddenKey(key)) this.issue([...path, key], FORBIDDEN_KEY_MESSAGE);
      else if (!byName.has(key) && !allowed.has(key)) this.unknownKey([...path, key], key, owner);
    }
    const output: Record<string, unknown> = {};
    for (const field of fields) {
      const value = Object.hasOwn(input, field.name) ? input[field.name] : undefined;
      if (value === undefined && mode === "update") continue;
      const normalized = this.field(field, value, [...path, field.name]);
      if (normalized !== undefined) output[field.name] = normalized;
    }
    return output;
  }

  private unknownKey(path: Path, key: string, owner: Owner): void {
    if (owner.kind !== "component" && SERVER_SET_FIELDS.has(key)) this.issue(path, `"${key}" is set by the server and cannot be written`);
    else if (owner.kind === "auth" && AUTH_SECRET_FIELDS.has(key)) {
      this.issue(path, "passwords are set through the auth endpoints (register, reset-password), not the records API");
    } else this.issue(path, `is not a field of ${owner.kind === "component" ? "component" : "schema"} ${owner.name}`);
  }

  /** Validates one field's value; `undefined` = absent (create mode only). */
  private field(field: FieldDefinition, value: unknown, path: Path): unknown {
    if (value === undefined) {
      if ("default" in field && field.default !== undefined) return structuredClone(field.default);
      if (field.required) {
        this.issue(path, "is required");
        return undefined;
      }
      return this.emptyValue(field);
    }
    if (this.isEmpty(field, value) || (field.required && value === "")) {
      if (field.required) {
        this.issue(path, "is required");
        return undefined;
      }
      return this.emptyValue(field);
    }
    // An optional text left empty is "no text": length and pattern rules apply to actual text.
    if (value === "" && field.type !== "json") return "";
    switch (field.type) {
      case "relation":
        return field.many ? this.relationList(field, value, path) : this.leaf(field, value, path);
      case "component":
        return field.repeatable ? this.componentList(field, value, path) : this.component(field.component, value, path);
      case "dynamic_zone":
        return this.dynamicZone(field, value, path);
      case "json": {
        const copy = copyJsonValue(value, FIELD_LIMITS.jsonDepth);
        if (!copy.ok) {
          this.issue(copy.path ? [...path, copy.path] : path, copy.message);
          return undefined;
        }
        return copy.value;
      }
      default:
        return this.leaf(field, value, path);
    }
  }

  private leaf(field: LeafFieldDefinition, value: unknown, path: Path): unknown {
    const result = checkFieldValue(field, value, { coerce: true });
    if (!result.ok) {
      this.issue(path, result.message);
      return undefined;
    }
    return result.value;
  }

  private countItems(field: { required?: boolean; min?: number; max?: number }, items: readonly unknown[], path: Path, unit: string): boolean {
    if (items.length > FIELD_LIMITS.items) {
      this.issue(path, `must have at most ${FIELD_LIMITS.items} ${unit}`);
      return false;
    }
    if (field.required && items.length === 0) {
      this.issue(path, "is required");
      return false;
    }
    if (field.min !== undefined && items.length < field.min) {
      this.issue(path, `must have at least ${field.min} ${unit}`);
      return false;
    }
    if (field.max !== undefined && items.length > field.max) {
      this.issue(path, `must have at most ${field.max} ${unit}`);
      return false;
    }
    return true;
  }

  private relationList(field: FieldOfType<"relation">, value: unknown, path: Path): unknown {
    // A lone id is an unambiguous one-item list (forms and templates send it that way).
    const items = typeof value === "string" ? [value] : value;
    if (!Array.isArray(items)) {
      this.issue(path, "must be a list of record ids");
      return undefined;
    }
    const ids: string[] = [];
    let valid = true;
    items.forEach((item, index) => {
      const result = this.leaf(field, item, [...path, index]);
      if (result === undefined) valid = false;
      else if (!ids.includes(result as string)) ids.push(result as string);
    });
    if (!valid || !this.countItems(field, ids, path, "related records")) return undefined;
    return ids;
  }

  private component(name: string, value: unknown, path: Path, allowed?: ReadonlySet<string>): Record<string, unknown> | undefined {
    const component = this.components.get(name);
    if (!component) {
      this.issue(path, `component "${name}" is not defined in this project`);
      return undefined;
    }
    if (!isPlainObject(value)) {
      this.issue(path, "must be an object");
      return undefined;
    }
    // Answered even when a nested value has issues: the valid part still gets its relations and
    // files checked, so that a write hears of every problem at once (checkRecordInput).
    return this.object(component.fields, value, path, "create", { kind: "component", name }, allowed);
  }

  private componentList(field: FieldOfType<"component">, value: unknown, path: Path): unknown {
    if (!Array.isArray(value)) {
      this.issue(path, "must be a list of objects");
      return undefined;
    }
    if (!this.countItems(field, value, path, "items")) return undefined;
    // An item that is not an object stays as null, so that the others keep their positions (paths).
    return value.map((item, index) => this.component(field.component, item, [...path, index]) ?? null);
  }

  private dynamicZone(field: FieldOfType<"dynamic_zone">, value: unknown, path: Path): unknown {
    if (!Array.isArray(value)) {
      this.issue(path, "must be a list of objects, each naming its component in __component");
      return undefined;
    }
    if (!this.countItems(field, value, path, "items")) return undefined;
    const allowedKeys = new Set([COMPONENT_KEY]);
    const items = value.map((item, index) => {
      const itemPath = [...path, index];
      if (!isPlainObject(item)) {
        this.issue(itemPath, "must be an object naming its component in __component");
        return null;
      }
      const name = item[COMPONENT_KEY];
      if (typeof name !== "string" || !field.components.includes(name)) {
        this.issue([...itemPath, COMPONENT_KEY], `must be one of ${field.components.map((item) => JSON.stringify(item)).join(", ")}`);
        return null;
      }
      const values = this.component(name, item, itemPath, allowedKeys);
      return values === undefined ? null : { [COMPONENT_KEY]: name, ...values };
    });
    return items;
  }
}

export interface CheckedRecordInput {
  /**
   * The values to store when `issues` is empty. Otherwise the valid part only (an invalid field is
   * left out, a component keeps its valid fields, a list item that is not an object is null), so
   * that the checks needing the database can still run over it and every problem is told at once.
   */
  values: Record<string, unknown>;
  /** Every problem found, each with its path (`title`, `blocks.1.heading`, `tags.0`). */
  issues: ErrorIssue[];
}

/**
 * validateRecordInput's checks, answering the issues instead of throwing them: every one is collected. Throws only
 * when there is no record to check at all (a component schema, input that is not an object).
 */
export function checkRecordInput(options: ValidateRecordInputOptions): CheckedRecordInput {
  const { schema, input, mode } = options;
  if (schema.kind === "component") {
    throw validationError(`"${schema.name}" is a component and has no records of its own`, [{ path: "", message: "components have no records" }]);
  }
  if (!isPlainObject(input)) {
    throw validationError("a record must be a JSON object", [{ path: "", message: "must be a JSON object" }]);
  }
  const validator = new RecordValidator(options.components);
  const values = validator.object(effectiveFields(schema), input, [], mode, { kind: schema.kind, name: schema.name });
  return { values, issues: validator.issues };
}

/** The 422 of an invalid record: the first issue in the message, all of them in `issues`. */
export function invalidRecordError(schemaName: string, issues: ErrorIssue[]): AppError {
  const first = issues[0];
  const summary = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return validationError(`invalid ${schemaName} record: ${summary}${more}`, issues);
}

/**
 * The one record validation of the platform: the records API and the flow engine's create and
 * update steps both call it. Answers the values to store, normalized (numbers from unambiguous
 * numeric text, "true"/"false" as booleans, date-times as UTC ISO strings, emails lowercased,
 * defaults filled on create), or throws AppError("validation_failed") listing every problem with
 * its path (`title`, `blocks.1.heading`, `tags.0`).
 *
 * Not checked here (they need the database): uniqueness and whether related records exist.
 */
export function validateRecordInput(options: ValidateRecordInputOptions): Record<string, unknown> {
  const { values, issues } = checkRecordInput(options);
  if (issues.length > 0) throw invalidRecordError(options.schema.name, issues);
  return values;
}
