import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";

export interface NestedFileValue {
  /** Where the id is (`blocks.2.image`), as validation issues name it. */
  path: string;
  /** The path without list positions (`blocks.image`): what a nested upload is marked with. */
  key: string;
  id: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The file ids a record holds in file fields inside its components and dynamic-zone entries (at
 * any depth), with where each is. Top-level file fields are left out: they have their own rules.
 * Values that are not what the schema says (a record stored before a schema change) are skipped.
 */
export function collectNestedFileValues(
  schema: Pick<SchemaDefinition, "kind" | "fields">,
  components: ReadonlyMap<string, Pick<SchemaDefinition, "fields">>,
  values: Record<string, unknown>,
): NestedFileValue[] {
  const found: NestedFileValue[] = [];
  const walkGroup = (componentName: string, item: unknown, path: string, key: string) => {
    const component = components.get(componentName);
    if (component && isObject(item)) walkFields(component.fields, item, path, key, true);
  };
  const walkFields = (fields: readonly FieldDefinition[], object: Record<string, unknown>, path: string, key: string, nested: boolean) => {
    for (const field of fields) {
      if (!Object.hasOwn(object, field.name)) continue;
      const value = object[field.name];
      const fieldPath = path ? `${path}.${field.name}` : field.name;
      const fieldKey = key ? `${key}.${field.name}` : field.name;
      if (field.type === "file" && nested && typeof value === "string" && value !== "") found.push({ path: fieldPath, key: fieldKey, id: value });
      else if (field.type === "component" && !field.repeatable) walkGroup(field.component, value, fieldPath, fieldKey);
      else if (field.type === "component" && Array.isArray(value)) value.forEach((item, index) => walkGroup(field.component, item, `${fieldPath}.${index}`, fieldKey));
      else if (field.type === "dynamic_zone" && Array.isArray(value)) {
        value.forEach((item, index) => {
          const name = isObject(item) ? item.__component : undefined;
          if (typeof name === "string" && field.components.includes(name)) walkGroup(name, item, `${fieldPath}.${index}`, fieldKey);
        });
      }
    }
  };
  walkFields(effectiveFields(schema), values, "", "", false);
  return found;
}

/** The project's component schemas by name. */
export function componentsByName<T extends Pick<SchemaDefinition, "name" | "kind">>(schemas: readonly T[]): ReadonlyMap<string, T> {
  return new Map(schemas.filter((schema) => schema.kind === "component").map((schema) => [schema.name, schema]));
}
