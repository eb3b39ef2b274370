import { isAppError } from "@/lib/errors";
import type { FlowStepOf } from "@/lib/flow/flow-definition";
import type { BackgroundFailure } from "@/lib/flow/engine/flow-services";
import { requireService } from "@/lib/flow/engine/require-service";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { log } from "@/lib/log";
import { renderRequestBody } from "../shared/render-body";
import { renderHeaders } from "../shared/render-headers";
import { renderUrl } from "../shared/render-url";
import type { TemplateScope } from "@/lib/flow/engine/render-template";
import { requestSecretNames, scopeWithSecrets } from "../shared/with-step-secrets";

// The reply is not captured; reading a little of it lets the connection finish cleanly.
const WEBHOOK_REPLY_BYTES = 1_024;

/**
 * Renders the request (a header with CR/LF or a bad URL fails the step) and starts the POST without
 * waiting for it. The delivery is bounded by the outbound timeout, not by the run: it outlives a
 * run that finishes first. A failed delivery (error or non-2xx) is reported to the host. Output: null.
 */
export function runWebhook(step: FlowStepOf<"webhook">, run: StepRunContext): null | Promise<null> {
  const secretNames = requestSecretNames(step);
  // Without secrets the step stays synchronous: no timer, no await.
  if (secretNames.length === 0) return startDelivery(step, run.context, run);
  return scopeWithSecrets(secretNames, run).then((scope) => startDelivery(step, scope, run));
}

function startDelivery(step: FlowStepOf<"webhook">, scope: TemplateScope, { context, services, index, name }: StepRunContext): null {
  const fetch = requireService(services.fetch, "outbound HTTP");
  const url = renderUrl(step.url, scope);
  const headers = renderHeaders(step.headers, scope);
  let body: string;
  if (step.body.trim() === "") {
    body = JSON.stringify(context.trigger ?? null);
    headers["content-type"] ??= "application/json";
  } else {
    body = renderRequestBody(step.body, scope, headers);
  }

  const report = (failure: Omit<BackgroundFailure, "stepIndex" | "stepName" | "type">) => {
    const full: BackgroundFailure = { stepIndex: index, stepName: name, type: "webhook", ...failure };
    if (services.onBackgroundFailure) services.onBackgroundFailure(full);
    else log.warn("webhook delivery failed", { ...full });
  };

  const delivery = Promise.resolve()
    .then(() => fetch(url, { method: "POST", headers, body, timeoutMs: FLOW_LIMITS.outboundTimeoutMs, maxBytes: WEBHOOK_REPLY_BYTES }))
    .then(
      (response) => {
        if (!response.ok) report({ error: `webhook delivery got status ${response.status}`, status: response.status });
      },
      (error: unknown) => {
        report({ error: `webhook delivery failed: ${isAppError(error) ? error.message : "network error"}` });
        if (!isAppError(error)) log.warn("webhook delivery error", { error });
      },
    )
    .catch((error: unknown) => log.error("webhook failure hook threw", { error }));
  services.onBackgroundTask?.(delivery);
  return null;
}
