import { AppError } from "@/lib/errors";
import type { FlowRecordsService, FlowServices } from "@/lib/flow/engine/flow-services";
import { findEmailTemplate } from "@/lib/email-templates/get-email-template";
import { getProjectMailTransport } from "@/lib/mail/get-project-mail-transport";
import { safeFetch } from "@/lib/outbound/safe-fetch";
import { getProjectMailSettings } from "@/lib/projects/get-project-mail-settings";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { ProjectRow } from "@/lib/projects/get-project-or-throw";
import { createRecord } from "@/lib/records-service/create-record";
import { listRecords } from "@/lib/records-service/list-records";
import { DEFAULT_SORT } from "@/lib/records-service/parse-list-query";
import { updateFirstRecord } from "@/lib/records-service/update-first-record";
import { effectiveFields, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import { log } from "@/lib/log";
import { textProblem } from "@/lib/records/normalize-document";
import { isSystemField } from "@/lib/records/record-names";
import type { RecordStore } from "@/lib/records/record-store";
import { resolveProjectSecrets } from "@/lib/secrets/resolve-project-secrets";
import { coerceFilterValue } from "./coerce-filter-value";

export interface ProjectFlowServicesOptions {
  project: ProjectRow;
  /** The project's schema definitions (relations and components are resolved against them). */
  schemas: readonly SchemaDefinition[];
  /** Keeps work that outlives the run alive (webhook deliveries): Next's after(), the server's tracker. */
  waitUntil?: (task: Promise<unknown>) => void;
  /** The project's customer database, when the caller already holds it (else it is resolved per operation). */
  store?: RecordStore;
}

function schemaOrThrow(schemas: readonly SchemaDefinition[], name: string): SchemaDefinition {
  const schema = schemas.find((candidate) => candidate.name === name && candidate.kind !== "component");
  if (!schema) throw new AppError("not_found", `the schema "${name}" does not exist`);
  return schema;
}

/**
 * Text no record can hold (NUL, an unpaired surrogate: `?title=%00`) is invalid input, refused as
 * the records API refuses it in a filter, and named by field rather than by the store's query path.
 */
function assertStorableFilterText(field: string, value: unknown): void {
  const problem = typeof value === "string" ? textProblem(value) : undefined;
  if (problem) throw new AppError("validation_failed", `invalid filter on "${field}"`, { issues: [{ path: field, message: `must not contain ${problem}` }] });
}

function recordsService(project: ProjectRow, schemas: readonly SchemaDefinition[], knownStore: RecordStore | undefined): FlowRecordsService {
  const storeFor = async () => knownStore ?? getProjectRecordStore({ project });
  // Only declared and system fields: stored secrets (password hashes, token hashes) must not become a filter oracle.
  const knownField = (schema: SchemaDefinition, name: string, fields: Map<string, unknown>) => {
    if (!isSystemField(name) && !fields.has(name)) throw new AppError("validation_failed", `"${name}" is not a field of ${schema.name}`);
  };
  const conditions = (schema: SchemaDefinition, where: Array<{ field: string; value: unknown }>) => {
    const fields = new Map(effectiveFields(schema).map((field) => [field.name, field]));
    return where.map((filter) => {
      knownField(schema, filter.field, fields);
      assertStorableFilterText(filter.field, filter.value);
      return { field: filter.field, op: "eq" as const, value: coerceFilterValue(fields.get(filter.field), filter.value) };
    });
  };
  const checkSort = (schema: SchemaDefinition, sort: { field: string } | null) => {
    if (sort) knownField(schema, sort.field, new Map(effectiveFields(schema).map((field) => [field.name, field])));
  };
  return {
    async query({ schema: name, where, limit, sort, expand, signal }) {
      const schema = schemaOrThrow(schemas, name);
      checkSort(schema, sort);
      const conditionsForQuery = conditions(schema, where);
      const store = await storeFor();
      const list = await listRecords({
        store,
        schema,
        schemas,
        signal,
        query: {
          where: conditionsForQuery,
          search: null,
          sort: sort
            ? [
                { field: sort.field, direction: sort.direction },
                { field: "id", direction: sort.direction },
              ]
            : [...DEFAULT_SORT],
          page: 1,
          perPage: limit,
          expand,
          withTotal: false,
        },
      });
      return list.data;
    },
    async create({ schema: name, values, signal }) {
      const schema = schemaOrThrow(schemas, name);
      const store = await storeFor();
      return createRecord({ store, schema, schemas, signal, projectId: project.id, origin: "flow", input: values });
    },
    async update({ schema: name, where, values, signal }) {
      const schema = schemaOrThrow(schemas, name);
      const store = await storeFor();
      const result = await updateFirstRecord({ store, schema, schemas, signal, projectId: project.id, origin: "flow", where: conditions(schema, where), input: values });
      return result.matched && result.record ? { ...result.record, matched: true } : { matched: false };
    },
  };
}

/**
 * The real outside world of a flow run in a project: its customer database through the records
 * service (writes marked as flow writes, so they emit no record events), the egress-checked fetch,
 * the project's mail server and saved email templates.
 */
export function createProjectFlowServices(options: ProjectFlowServicesOptions): FlowServices {
  const { project, schemas } = options;
  return {
    records: recordsService(project, schemas, options.store),
    fetch: safeFetch,
    async sendMail(message, { signal }) {
      const transport = getProjectMailTransport({ projectId: project.id, settings: getProjectMailSettings(project) });
      return transport.send(message, { signal });
    },
    emailTemplates: {
      async get(name) {
        const template = await findEmailTemplate({ projectId: project.id, idOrName: name });
        return template ? { subject: template.subject, html: template.html || null, text: template.text || null } : null;
      },
    },
    secrets: {
      resolve: (names) => resolveProjectSecrets({ projectId: project.id, names }),
    },
    onBackgroundTask: options.waitUntil,
    onBackgroundFailure(failure) {
      log.warn("webhook delivery failed", { projectId: project.id, ...failure });
    },
  };
}
