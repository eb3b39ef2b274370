import { withProjectAuth } from "@/lib/http/with-project-auth";
import { AppError } from "@/lib/errors";
import { getEndpointOrThrow } from "@/lib/endpoints/get-endpoint-or-throw";
import { analyticsRangeSchema, getEndpointAnalytics } from "@/lib/endpoint-analytics/get-endpoint-analytics";

/** The endpoint's calls, errors, 429s, cache hits and latency percentiles: `?range=1h|24h|7d` (default 24h). */
export const GET = withProjectAuth<{ projectId: string; endpointId: string }>(
  async ({ request, project, params }) => {
    const parsed = analyticsRangeSchema.safeParse(new URL(request.url).searchParams.get("range") ?? "24h");
    if (!parsed.success) throw new AppError("bad_request", "range must be 1h, 24h or 7d", { issues: [{ path: "range", message: "expected 1h, 24h or 7d" }] });
    await getEndpointOrThrow({ projectId: project.id, endpointId: params.endpointId });
    return Response.json(await getEndpointAnalytics({ projectId: project.id, endpointId: params.endpointId, range: parsed.data }));
  },
  { permission: "endpoints.read" },
);
