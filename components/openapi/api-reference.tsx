import type { ReactNode } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import {
  HTTP_METHODS,
  type HttpMethod,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiMediaType,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiResponse,
} from "@/lib/openapi/openapi-document";

/*
 * A server-rendered reading of a project's OpenAPI document: no client JavaScript. Operations are
 * grouped by tag (h2), each an h3 with its method and path; parameters, bodies and responses are
 * tables; named schemas are listed once at the end and linked to by anchor.
 */

const METHOD_TONES: Record<HttpMethod, BadgeTone> = { get: "indigo", post: "green", put: "amber", patch: "amber", delete: "red" };

const anchorOf = (kind: "op" | "schema", name: string) => `${kind}-${name.replace(/[^a-zA-Z0-9_-]/g, "-")}`;
const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

function SchemaLink({ name }: { name: string }) {
  return (
    <a href={`#${anchorOf("schema", name)}`} className="font-mono text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
      {name}
    </a>
  );
}

/** A one-line reading of a JSON Schema: `string (email) | null`, `array of component.link`. */
function SchemaType({ schema }: { schema: JsonSchema | undefined }): ReactNode {
  if (!schema) return "any";
  if (typeof schema.$ref === "string") return <SchemaLink name={refName(schema.$ref)} />;
  const join = (parts: unknown[], separator: string) =>
    parts.map((part, index) => (
      <span key={index}>
        {index > 0 && separator}
        <SchemaType schema={part as JsonSchema} />
      </span>
    ));
  if (Array.isArray(schema.oneOf)) return join(schema.oneOf, " | ");
  if (Array.isArray(schema.allOf)) return join(schema.allOf, " & ");
  if ("const" in schema) return <code>{JSON.stringify(schema.const)}</code>;
  if (Array.isArray(schema.enum)) return <code>{schema.enum.map((value) => JSON.stringify(value)).join(" | ")}</code>;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : [];
  if (types.length === 0) return "any JSON";
  return types.map((type, index) => (
    <span key={type}>
      {index > 0 && " | "}
      {type === "array" ? (
        <>
          array of <SchemaType schema={schema.items as JsonSchema | undefined} />
        </>
      ) : type === "object" && schema.properties && Object.keys(schema.properties).length > 0 ? (
        <>object {"{ " + Object.keys(schema.properties).join(", ") + " }"}</>
      ) : (
        <>
          {type}
          {typeof schema.format === "string" && ` (${schema.format})`}
        </>
      )}
    </span>
  ));
}

function constraintsOf(schema: JsonSchema): string {
  const notes: string[] = [];
  for (const [key, label] of [
    ["minLength", "min length"],
    ["maxLength", "max length"],
    ["minimum", "min"],
    ["maximum", "max"],
    ["minItems", "min items"],
    ["maxItems", "max items"],
    ["pattern", "pattern"],
    ["default", "default"],
  ] as const) {
    if (schema[key] !== undefined) notes.push(`${label} ${typeof schema[key] === "string" && key !== "pattern" ? JSON.stringify(schema[key]) : String(schema[key])}`);
  }
  if (typeof schema.description === "string") notes.push(schema.description);
  return notes.join("; ");
}

const cell = "px-3 py-2 align-top";
const headCell = "px-3 py-2 text-left font-medium text-slate-700";

function PropertiesTable({ schema, caption }: { schema: JsonSchema; caption: string }) {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  if (Object.keys(properties).length === 0) {
    return (
      <p className="text-sm text-slate-700">
        <SchemaType schema={schema} />
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={headCell}>
              Field
            </th>
            <th scope="col" className={headCell}>
              Type
            </th>
            <th scope="col" className={headCell}>
              Required
            </th>
            <th scope="col" className={headCell}>
              Notes
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {Object.entries(properties).map(([name, property]) => (
            <tr key={name}>
              <th scope="row" className={`${cell} text-left font-mono font-normal text-slate-900`}>
                {name}
              </th>
              <td className={`${cell} text-slate-800`}>
                <SchemaType schema={property} />
              </td>
              <td className={`${cell} text-slate-700`}>{required.has(name) ? "yes" : "no"}</td>
              <td className={`${cell} text-slate-600`}>{constraintsOf(property)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Body({ content, caption }: { content: Record<string, OpenApiMediaType>; caption: string }) {
  return (
    <>
      {Object.entries(content).map(([type, media]) => (
        <div key={type} className="space-y-1">
          <p className="text-xs font-medium text-slate-700">
            <code>{type}</code>
          </p>
          <PropertiesTable schema={media.schema} caption={`${caption} (${type})`} />
        </div>
      ))}
    </>
  );
}

function authOf(operation: OpenApiOperation, document: OpenApiDocument): string {
  const security = operation.security ?? document.security;
  if (security.length === 0) return "None (public)";
  return security
    .flatMap((requirement) => Object.keys(requirement))
    .map((scheme) => (scheme === "apiKey" ? "API key (Bearer)" : `End-user token (Bearer, ${scheme.replace(/^endUser_/, "")})`))
    .join(" or ");
}

function resolveResponse(response: OpenApiResponse | { $ref: string }, document: OpenApiDocument): OpenApiResponse {
  return "$ref" in response ? (document.components.responses[refName(response.$ref)] ?? { description: refName(response.$ref) }) : response;
}

function ParametersTable({ parameters, caption }: { parameters: OpenApiParameter[]; caption: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {["Name", "In", "Type", "Required", "Notes"].map((label) => (
              <th key={label} scope="col" className={headCell}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {parameters.map((parameter) => (
            <tr key={`${parameter.in} ${parameter.name}`}>
              <th scope="row" className={`${cell} text-left font-mono font-normal text-slate-900`}>
                {parameter.style === "deepObject" ? `${parameter.name}[…]` : parameter.name}
              </th>
              <td className={`${cell} text-slate-700`}>{parameter.in}</td>
              <td className={`${cell} text-slate-800`}>
                <SchemaType schema={parameter.schema} />
              </td>
              <td className={`${cell} text-slate-700`}>{parameter.required ? "yes" : "no"}</td>
              <td className={`${cell} text-slate-600`}>{[parameter.description, constraintsOf(parameter.schema)].filter(Boolean).join(" ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Operation({
  path,
  method,
  operation,
  pathParameters,
  document,
}: {
  path: string;
  method: HttpMethod;
  operation: OpenApiOperation;
  pathParameters: OpenApiParameter[];
  document: OpenApiDocument;
}) {
  const title = `${method.toUpperCase()} ${path}`;
  const parameters = [...pathParameters, ...(operation.parameters ?? [])];
  return (
    <article
      id={anchorOf("op", operation.operationId)}
      aria-labelledby={`${anchorOf("op", operation.operationId)}-title`}
      className="space-y-3 border-t border-slate-100 px-5 py-4 first:border-t-0"
    >
      <h3 id={`${anchorOf("op", operation.operationId)}-title`} className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
        <Badge tone={METHOD_TONES[method]} className="font-mono">
          {method.toUpperCase()}
        </Badge>
        <code className="break-all">{path}</code>
        <span className="font-normal text-slate-700">{operation.summary}</span>
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Auth</dt>
        <dd className="text-slate-800">{authOf(operation, document)}</dd>
        {operation.description && (
          <>
            <dt className="text-slate-600">About</dt>
            <dd className="text-slate-800">{operation.description}</dd>
          </>
        )}
        {typeof operation["x-cache-seconds"] === "number" && operation["x-cache-seconds"] > 0 && (
          <>
            <dt className="text-slate-600">Cache</dt>
            <dd className="text-slate-800">{operation["x-cache-seconds"]} seconds</dd>
          </>
        )}
      </dl>
      {parameters.length > 0 && (
        <section aria-label={`Parameters of ${title}`} className="space-y-1">
          <h4 className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Parameters</h4>
          <ParametersTable parameters={parameters} caption={`Parameters of ${title}`} />
        </section>
      )}
      {operation.requestBody && (
        <section aria-label={`Request body of ${title}`} className="space-y-1">
          <h4 className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Request body {operation.requestBody.required ? "(required)" : "(optional)"}</h4>
          {operation.requestBody.description && <p className="text-sm text-slate-700">{operation.requestBody.description}</p>}
          <Body content={operation.requestBody.content} caption={`Request body of ${title}`} />
        </section>
      )}
      <section aria-label={`Responses of ${title}`} className="space-y-1">
        <h4 className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Responses</h4>
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">Responses of {title}</caption>
            <thead className="bg-slate-50">
              <tr>
                {["Status", "Meaning", "Body"].map((label) => (
                  <th key={label} scope="col" className={headCell}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {Object.entries(operation.responses).map(([status, reference]) => {
                const response = resolveResponse(reference, document);
                return (
                  <tr key={status}>
                    <th scope="row" className={`${cell} text-left font-mono font-normal text-slate-900`}>
                      {status}
                    </th>
                    <td className={`${cell} text-slate-700`}>{response.description}</td>
                    <td className={`${cell} text-slate-800`}>
                      {response.content
                        ? Object.entries(response.content).map(([type, media]) => (
                            <div key={type}>
                              <code className="text-slate-700">{type}</code>: <SchemaType schema={media.schema} />
                            </div>
                          ))
                        : "none"}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
    </article>
  );
}

/** The document's operations by tag, then its named schemas. */
export function ApiReference({ document }: { document: OpenApiDocument }) {
  const byTag = new Map<string, Array<{ path: string; method: HttpMethod; operation: OpenApiOperation; pathParameters: OpenApiParameter[] }>>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags[0] ?? "Other";
      const list = byTag.get(tag) ?? [];
      list.push({ path, method, operation, pathParameters: item.parameters ?? [] });
      byTag.set(tag, list);
    }
  }
  const schemaEntries = Object.entries(document.components.schemas);
  return (
    <div className="space-y-6">
      {byTag.size === 0 && <p className="text-sm text-slate-700">This project has no collections, auth schemas or enabled endpoints yet.</p>}
      {[...byTag.entries()].map(([tag, operations]) => (
        <Card key={tag}>
          <CardHeader title={tag} />
          <div>
            {operations.map((entry) => (
              <Operation key={`${entry.method} ${entry.path}`} {...entry} document={document} />
            ))}
          </div>
        </Card>
      ))}
      <Card>
        <CardHeader title="Schemas" />
        <CardBody className="space-y-6">
          {schemaEntries.map(([name, schema]) => (
            <section key={name} id={anchorOf("schema", name)} aria-labelledby={`${anchorOf("schema", name)}-title`} className="space-y-2">
              <h3 id={`${anchorOf("schema", name)}-title`} className="font-mono text-sm font-semibold text-slate-900">
                {name}
              </h3>
              {typeof schema.description === "string" && <p className="text-sm text-slate-700">{schema.description}</p>}
              <PropertiesTable schema={schema} caption={`Fields of ${name}`} />
            </section>
          ))}
        </CardBody>
      </Card>
    </div>
  );
}
