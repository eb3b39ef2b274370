import { secretNamesInValue } from "@/lib/flow/secret-references";
import type { EndpointInput } from "./endpoint-definition";
import { toEndpointInput } from "./endpoint-row";
import { listEndpoints } from "./list-endpoints";

export interface EndpointsExport {
  format: "flowpoint.endpoints";
  version: 1;
  exportedAt: string;
  endpoints: EndpointInput[];
  /** Names of the project secrets the endpoints use (`{{secrets.NAME}}`); values never leave the project. */
  secrets: string[];
}

/** A project's endpoints as portable JSON (the API's shape without server-assigned fields), for git or another project. */
export async function exportEndpoints(options: { projectId: string }): Promise<EndpointsExport> {
  const definitions = await listEndpoints(options);
  const endpoints = definitions.map(toEndpointInput);
  return { format: "flowpoint.endpoints", version: 1, exportedAt: new Date().toISOString(), endpoints, secrets: secretNamesInValue(endpoints) };
}
