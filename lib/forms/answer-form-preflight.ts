import { errorBody } from "@/lib/errors";
import { preflightHeaders } from "@/lib/endpoints/invoke/cors";
import { logServerError } from "@/lib/http/log-server-error";
import { FORM_ANSWER_HEADERS, formJsonAnswer, formNotFound } from "./form-answer";
import { findFormAutomation } from "./find-form-automation";
import type { FormRouteParams } from "./receive-form-submission";
import { answerableError } from "@/lib/http/answerable-error";

/**
 * The CORS preflight of a form post, answered from the trigger's allowedOrigins exactly as
 * endpoints answer theirs: a grant for POST from a listed origin, none otherwise (a plain HTML
 * form post needs no preflight). 404 for an unknown or disabled form.
 */
export async function answerFormPreflight(request: Request, params: FormRouteParams): Promise<Response> {
  try {
    const target = await findFormAutomation(params);
    if (!target) return formNotFound();
    const method = (request.headers.get("access-control-request-method") ?? "").toUpperCase();
    const grant =
      method === "POST" ? preflightHeaders(request.headers.get("origin"), target.trigger.allowedOrigins, "POST", request.headers.get("access-control-request-headers")) : {};
    return new Response(null, { status: 204, headers: { ...grant, ...FORM_ANSWER_HEADERS } });
  } catch (error) {
    const appError = answerableError(error);
    const logged = appError.status >= 500 ? logServerError("form preflight failed", request, appError, error, { projectId: params.projectId, form: params.form }) : {};
    return formJsonAnswer(appError.status, errorBody(appError), { ...appError.headers, ...logged });
  }
}
