import type { FieldType, SchemaKind } from "@/lib/schemas/schema-definition";

/** How the editor names field types: a plain word first, the API's type name after it. */
export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  string: "Short text",
  text: "Long text",
  richtext: "Rich text",
  number: "Number",
  integer: "Integer",
  boolean: "Boolean",
  datetime: "Date and time",
  email: "Email",
  url: "URL",
  enum: "Choice (enum)",
  json: "JSON",
  relation: "Relation",
  component: "Component",
  dynamic_zone: "Dynamic zone",
  file: "File",
};

export const SCHEMA_KIND_LABELS: Record<SchemaKind, { label: string; description: string }> = {
  collection: { label: "Collection", description: "Records with their own API: articles, products, tickets." },
  auth: { label: "Auth", description: "Your site's end users: registration, login, verification. Email and password are built in." },
  component: { label: "Component", description: "A reusable group of fields placed inside other schemas; no records of its own." },
};
