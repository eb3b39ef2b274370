import type { EndpointDefinition, EndpointInput } from "./endpoint-definition";

export type EndpointImportAction = "create" | "replace" | "unchanged";

/** What an import does to one endpoint of the document, in the document's order. */
export interface EndpointImportChange {
  method: string;
  slug: string;
  name: string;
  action: EndpointImportAction;
  /** The stored endpoint this replaces or leaves as it is; null when it is created. */
  endpointId: string | null;
  /** For a replacement: the top-level fields that differ (name, auth, steps, response…). */
  changedFields: string[];
}

/** Every field an import writes besides method and slug, which say which endpoint it is. */
const COMPARED_FIELDS = ["name", "enabled", "auth", "authSchema", "allowedOrigins", "group", "cacheSeconds", "steps", "response", "input"] as const satisfies ReadonlyArray<
  keyof EndpointInput
>;

/** JSON with object keys in a fixed order, so that two equal definitions read the same whatever order their keys were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function changedFields(incoming: EndpointInput, stored: EndpointDefinition): string[] {
  return COMPARED_FIELDS.filter((field) => canonicalJson(incoming[field]) !== canonicalJson(stored[field]));
}

/**
 * What importing validated definitions into a project holding `existing` does, endpoint by endpoint:
 * matched by (method, slug), an endpoint is created, replaced (naming the fields that differ) or
 * left unchanged. The dry run answers this; the import writes exactly the creations and replacements.
 */
export function planEndpointImport(inputs: readonly EndpointInput[], existing: readonly EndpointDefinition[]): EndpointImportChange[] {
  const stored = new Map(existing.map((endpoint) => [`${endpoint.method} ${endpoint.slug}`, endpoint]));
  return inputs.map((input) => {
    const match = stored.get(`${input.method} ${input.slug}`);
    const identity = { method: input.method, slug: input.slug, name: input.name };
    if (!match) return { ...identity, action: "create", endpointId: null, changedFields: [] };
    const fields = changedFields(input, match);
    return { ...identity, action: fields.length > 0 ? "replace" : "unchanged", endpointId: match.id, changedFields: fields };
  });
}
