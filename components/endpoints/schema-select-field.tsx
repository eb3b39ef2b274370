"use client";

import { FieldShell } from "@/components/ui/field";
import { NameSelect } from "@/components/ui/input";

/** A schema as the endpoint editor needs it: pickers for schemas, fields and relation fields, and which fields have indexes. */
export interface EditorSchema {
  name: string;
  kind: "collection" | "auth" | "component";
  fields: { name: string; type: string; unique?: boolean; indexed?: boolean }[];
}

/** A schema of the project chosen by name (steps, the record trigger, the end-user auth schema); says so while there is none to choose. */
export function SchemaSelectField({
  id,
  label = "Schema",
  names,
  value,
  onChange,
  error,
  hint,
  emptyLabel = "Choose a schema…",
  noneHint = "This project has no schemas yet: create one under Schemas.",
  className = "font-mono",
}: {
  id: string;
  label?: string;
  names: readonly string[];
  value: string;
  onChange: (name: string) => void;
  error?: string;
  hint?: string;
  emptyLabel?: string;
  noneHint?: string;
  /** The select's classes. */
  className?: string;
}) {
  return (
    <FieldShell id={id} label={label} error={error} hint={names.length === 0 ? noneHint : hint}>
      <NameSelect id={id} names={names} emptyLabel={emptyLabel} value={value} onChange={(event) => onChange(event.target.value)} invalid={Boolean(error)} className={className} />
    </FieldShell>
  );
}

/** The names of the schemas that hold records (components do not). */
export function recordSchemaNames(schemas: readonly EditorSchema[]): string[] {
  return schemas.filter((schema) => schema.kind !== "component").map((schema) => schema.name);
}
