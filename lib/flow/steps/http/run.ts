import type { FlowStepOf } from "@/lib/flow/flow-definition";
import { requireService } from "@/lib/flow/engine/require-service";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { renderRequestBody } from "../shared/render-body";
import { renderHeaders } from "../shared/render-headers";
import { renderUrl } from "../shared/render-url";
import { requestSecretNames, scopeWithSecrets } from "../shared/with-step-secrets";

export interface HttpStepOutput {
  status: number;
  ok: boolean;
  /** Parsed JSON for JSON replies, else text. */
  body: unknown;
  /** Present (true) only when the reply was longer than 256 KB and was cut. */
  truncated?: true;
}

function parseJsonReply(body: unknown, headers: Record<string, string>, truncated: boolean): unknown {
  if (typeof body !== "string" || truncated) return body;
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  if (!/[/+]json\b/i.test(contentType)) return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** Calls the URL through the injected fetch (safeFetch). A non-2xx reply is data, not a failure. */
export async function runHttp(step: FlowStepOf<"http">, { context, services, signal }: StepRunContext): Promise<HttpStepOutput> {
  const fetch = requireService(services.fetch, "outbound HTTP");
  const scope = await scopeWithSecrets(requestSecretNames(step), { context, services, signal });
  const url = renderUrl(step.url, scope);
  const headers = renderHeaders(step.headers, scope);
  const body = step.method !== "GET" && step.body.trim() !== "" ? renderRequestBody(step.body, scope, headers) : undefined;
  const response = await fetch(url, {
    method: step.method,
    headers,
    body,
    signal,
    timeoutMs: FLOW_LIMITS.outboundTimeoutMs,
    maxBytes: FLOW_LIMITS.maxHttpResponseBytes,
  });
  const output: HttpStepOutput = {
    status: response.status,
    ok: response.ok,
    body: parseJsonReply(response.body, response.headers, response.truncated),
  };
  if (response.truncated) output.truncated = true;
  return output;
}
