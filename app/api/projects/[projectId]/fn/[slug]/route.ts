import { waitUntil } from "@/lib/http/after-response";
import { invokeEndpoint, type InvocationHooks } from "@/lib/endpoints/invoke/invoke-endpoint";

/**
 * Custom endpoint invocation through the App Router (serverless deployments). The production server
 * (`npm start`) serves these paths straight from the same Fetch handler without Next's per-request cost.
 */
export const dynamic = "force-dynamic";

const hooks: InvocationHooks = { waitUntil };

function handle(request: Request): Promise<Response> {
  return invokeEndpoint(request, hooks);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS };
