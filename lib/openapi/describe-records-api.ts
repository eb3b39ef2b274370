import { LIST_QUERY_LIMITS, fieldFilterOps, isSortableField, searchableFields, systemFieldFilterOps } from "@/lib/records-service/parse-list-query";
import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { SYSTEM_FIELDS } from "@/lib/records/record-names";
import { createInputSchemaName, recordSchemaName, updateInputSchemaName } from "./describe-record-schemas";
import { responseRef, schemaRef, type JsonSchema, type OpenApiOperation, type OpenApiParameter, type OpenApiPathItem } from "./openapi-document";

function filterValue(field: FieldDefinition | "id" | "timestamp"): JsonSchema {
  if (field === "id") return { type: "string" };
  if (field === "timestamp") return { type: "string", format: "date-time" };
  switch (field.type) {
    case "number":
      return { type: "number" };
    case "integer":
      return { type: "number", description: "Any number compares, also on integer fields." };
    case "boolean":
      return { type: "boolean" };
    case "datetime":
      return { type: "string", format: "date-time" };
    case "enum":
      return { type: "string", enum: field.values };
    default:
      return { type: "string", maxLength: LIST_QUERY_LIMITS.maxFilterValueLength };
  }
}

function filterProperty(value: JsonSchema, operators: readonly string[]): JsonSchema {
  const byOperator = Object.fromEntries(
    operators.map((op) => [
      op,
      op === "in"
        ? { type: "string", description: `Comma-separated values (at most ${LIST_QUERY_LIMITS.maxInValues}).` }
        : op === "contains"
          ? { type: "string", minLength: 1 }
          : value,
    ]),
  );
  return { oneOf: [value, { type: "object", properties: byOperator, additionalProperties: false }] };
}

function listParameters(schema: SchemaDefinition): OpenApiParameter[] {
  const fields = effectiveFields(schema);
  const filterable: Record<string, JsonSchema> = {
    id: filterProperty(filterValue("id"), systemFieldFilterOps("id")),
    createdAt: filterProperty(filterValue("timestamp"), systemFieldFilterOps("createdAt")),
    updatedAt: filterProperty(filterValue("timestamp"), systemFieldFilterOps("updatedAt")),
  };
  for (const field of fields) {
    const operators = fieldFilterOps(field);
    if (operators.length > 0) filterable[field.name] = filterProperty(filterValue(field), operators);
  }
  const sortable = [...SYSTEM_FIELDS, ...fields.filter(isSortableField).map((field) => field.name)];
  const relations = fields.filter((field) => field.type === "relation").map((field) => field.name);
  const searchable = searchableFields(schema);
  const parameters: OpenApiParameter[] = [
    {
      name: "filter",
      in: "query",
      style: "deepObject",
      explode: true,
      description:
        "`filter[field]=value` (equality) or `filter[field][op]=value`. Values are read as the field's type. " +
        `At most ${LIST_QUERY_LIMITS.maxConditions} conditions. Past ${LIST_QUERY_LIMITS.maxOffset.toLocaleString("en")} records in, page by id: sort=id&filter[id][gt]=<last id>.`,
      schema: { type: "object", properties: filterable, additionalProperties: false },
    },
  ];
  if (searchable.length > 0) {
    parameters.push({
      name: "search",
      in: "query",
      description: `Case-insensitive substring search over ${searchable.join(", ")}.`,
      schema: { type: "string", maxLength: LIST_QUERY_LIMITS.maxSearchLength },
    });
  }
  parameters.push(
    {
      name: "sort",
      in: "query",
      description: `Comma-separated fields, \`-\` for descending, at most ${LIST_QUERY_LIMITS.maxSortFields}: ${sortable.join(", ")}. Default: -createdAt.`,
      schema: { type: "string", example: "-createdAt" },
    },
    { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
    { name: "perPage", in: "query", schema: { type: "integer", minimum: 1, maximum: LIST_QUERY_LIMITS.maxPerPage, default: LIST_QUERY_LIMITS.defaultPerPage } },
  );
  if (relations.length > 0) parameters.push(expandParameter(relations));
  parameters.push({
    name: "total",
    in: "query",
    description: `false: no count (meta.total is null). Counts stop at ${LIST_QUERY_LIMITS.maxTotal.toLocaleString("en")} (meta.totalCapped).`,
    schema: { type: "boolean", default: true },
  });
  return parameters;
}

function expandParameter(relations: string[]): OpenApiParameter {
  return {
    name: "expand",
    in: "query",
    description: `Comma-separated relation fields whose records are answered under \`expand\`: ${relations.join(", ")}.`,
    schema: { type: "string" },
  };
}

function recordBody(schema: SchemaDefinition, inputName: string): NonNullable<OpenApiOperation["requestBody"]> {
  const fields = effectiveFields(schema);
  const files = fields.filter((field) => field.type === "file").map((field) => field.name);
  const content: NonNullable<OpenApiOperation["requestBody"]>["content"] = { "application/json": { schema: schemaRef(inputName) } };
  if (files.length > 0) {
    content["multipart/form-data"] = {
      schema: {
        type: "object",
        description: "The values as JSON in the part `data`, and one file per file field.",
        properties: { data: schemaRef(inputName), ...Object.fromEntries(files.map((name) => [name, { type: "string", contentMediaType: "application/octet-stream" }])) },
      },
      encoding: { data: { contentType: "application/json" } },
    };
  }
  return { required: true, content };
}

const json = (schema: JsonSchema) => ({ "application/json": { schema } });

const recordIdParameter: OpenApiParameter = { name: "recordId", in: "path", required: true, schema: { type: "string" } };

/**
 * The records API (app/api/projects/[projectId]/records) of every collection: list, create, import,
 * read, update, delete, with the permissions each needs. Paths are relative to the project's server.
 */
export function describeRecordsApi(schemas: readonly SchemaDefinition[]): Record<string, OpenApiPathItem> {
  const paths: Record<string, OpenApiPathItem> = {};
  for (const schema of schemas) {
    if (schema.kind !== "collection") continue;
    const name = schema.name;
    const tags = [`Records: ${name}`];
    const record = schemaRef(recordSchemaName(name));
    const common = { "401": responseRef("Unauthorized"), "403": responseRef("Forbidden"), "404": responseRef("NotFound"), "429": responseRef("RateLimited") };
    const relations = effectiveFields(schema)
      .filter((field) => field.type === "relation")
      .map((field) => field.name);
    paths[`/records/${name}`] = {
      get: {
        operationId: `listRecords_${name}`,
        summary: `List ${name} records`,
        description: "Needs records.read.",
        tags,
        parameters: listParameters(schema),
        responses: {
          "200": {
            description: "One page of records.",
            content: json({
              type: "object",
              properties: {
                data: { type: "array", items: record },
                meta: {
                  type: "object",
                  properties: {
                    page: { type: "integer" },
                    perPage: { type: "integer" },
                    total: { type: ["integer", "null"] },
                    totalCapped: { const: true },
                  },
                  required: ["page", "perPage", "total"],
                },
              },
              required: ["data", "meta"],
            }),
          },
          "400": responseRef("BadRequest"),
          ...common,
        },
      },
      post: {
        operationId: `createRecord_${name}`,
        summary: `Create a ${name} record`,
        description: "Needs records.create.",
        tags,
        requestBody: recordBody(schema, createInputSchemaName(name)),
        responses: {
          "201": { description: "The record created.", headers: { Location: { schema: { type: "string" } } }, content: json(record) },
          "400": responseRef("BadRequest"),
          ...common,
          "409": responseRef("Conflict"),
          "413": responseRef("PayloadTooLarge"),
          "415": responseRef("UnsupportedMediaType"),
          "422": responseRef("ValidationFailed"),
        },
      },
    };
    paths[`/records/${name}/import`] = {
      post: {
        operationId: `importRecords_${name}`,
        summary: `Import ${name} records`,
        description: "Needs records.create. One JSON record per line; each line is validated on its own.",
        tags,
        requestBody: { required: true, content: { "application/x-ndjson": { schema: { type: "string" } } } },
        responses: {
          "200": {
            description: "How many records were imported, and why the others failed.",
            content: json({
              type: "object",
              properties: {
                imported: { type: "integer" },
                failed: {
                  type: "array",
                  items: { type: "object", properties: { line: { type: "integer" }, issues: { type: "array", items: schemaRef("ErrorIssue") } }, required: ["line", "issues"] },
                },
              },
              required: ["imported", "failed"],
            }),
          },
          "400": responseRef("BadRequest"),
          ...common,
          "413": responseRef("PayloadTooLarge"),
          "415": responseRef("UnsupportedMediaType"),
        },
      },
    };
    paths[`/records/${name}/{recordId}`] = {
      parameters: [recordIdParameter],
      get: {
        operationId: `getRecord_${name}`,
        summary: `Read a ${name} record`,
        description: "Needs records.read.",
        tags,
        parameters: relations.length > 0 ? [expandParameter(relations)] : [],
        responses: { "200": { description: "The record.", content: json(record) }, "400": responseRef("BadRequest"), ...common },
      },
      patch: {
        operationId: `updateRecord_${name}`,
        summary: `Update a ${name} record`,
        description: "Needs records.update. Only the fields sent change.",
        tags,
        requestBody: recordBody(schema, updateInputSchemaName(name)),
        responses: {
          "200": { description: "The record as it now is.", content: json(record) },
          "400": responseRef("BadRequest"),
          ...common,
          "409": responseRef("Conflict"),
          "413": responseRef("PayloadTooLarge"),
          "415": responseRef("UnsupportedMediaType"),
          "422": responseRef("ValidationFailed"),
        },
      },
      delete: {
        operationId: `deleteRecord_${name}`,
        summary: `Delete a ${name} record`,
        description: "Needs records.delete.",
        tags,
        responses: { "204": { description: "Deleted." }, ...common },
      },
    };
  }
  return paths;
}
