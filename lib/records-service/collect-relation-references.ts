import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { COMPONENT_KEY } from "./validate-record";

/** One related id found in validated record values, with where it sits (`author`, `blocks.2.link`). */
export interface RelationReference {
  /** The schema the id must exist in. */
  target: string;
  id: string;
  path: string;
}

export interface CollectRelationReferencesOptions {
  schema: SchemaDefinition;
  components: readonly SchemaDefinition[];
  /** Values answered by validateRecordInput (create or update). */
  values: Record<string, unknown>;
}

/**
 * Every relation id in validated values, at any depth (relation fields inside components and
 * dynamic-zone items too), so that the caller can check existence with one query per target.
 */
export function collectRelationReferences(options: CollectRelationReferencesOptions): RelationReference[] {
  const components = new Map(options.components.filter((schema) => schema.kind === "component").map((schema) => [schema.name, schema]));
  const references: RelationReference[] = [];

  const walkObject = (fields: readonly FieldDefinition[], values: Record<string, unknown>, path: string[]): void => {
    for (const field of fields) {
      const value = values[field.name];
      if (value === undefined || value === null) continue;
      const fieldPath = [...path, field.name];
      if (field.type === "relation") {
        if (typeof value === "string") references.push({ target: field.target, id: value, path: fieldPath.join(".") });
        if (Array.isArray(value)) {
          value.forEach((id, index) => {
            if (typeof id === "string") references.push({ target: field.target, id, path: [...fieldPath, String(index)].join(".") });
          });
        }
      } else if (field.type === "component") {
        const component = components.get(field.component);
        if (!component) continue;
        const items = Array.isArray(value) ? value : [value];
        items.forEach((item, index) => {
          if (typeof item === "object" && item !== null) {
            walkObject(component.fields, item as Record<string, unknown>, Array.isArray(value) ? [...fieldPath, String(index)] : fieldPath);
          }
        });
      } else if (field.type === "dynamic_zone" && Array.isArray(value)) {
        value.forEach((item, index) => {
          if (typeof item !== "object" || item === null) return;
          const component = components.get(String((item as Record<string, unknown>)[COMPONENT_KEY]));
          if (component) walkObject(component.fields, item as Record<string, unknown>, [...fieldPath, String(index)]);
        });
      }
    }
  };

  walkObject(effectiveFields(options.schema), options.values, []);
  return references;
}
