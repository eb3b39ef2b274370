import type { EndpointInput } from "./endpoint-definition";
import { toEndpointInput } from "./endpoint-row";
import { listEndpoints } from "./list-endpoints";

export interface EndpointsExport {
  format: "flowpoint.endpoints";
  version: 1;
  exportedAt: string;
  endpoints: EndpointInput[];
}

/** A project's endpoints as portable JSON (the API's shape without server-assigned fields), for git or another project. */
export async function exportEndpoints(options: { projectId: string }): Promise<EndpointsExport> {
  const definitions = await listEndpoints(options);
  return { format: "flowpoint.endpoints", version: 1, exportedAt: new Date().toISOString(), endpoints: definitions.map(toEndpointInput) };
}
