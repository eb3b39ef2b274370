import { errorBody } from "@/lib/errors";
import { corsHeaders } from "@/lib/endpoints/invoke/cors";
import { rateLimitCaller } from "@/lib/endpoints/invoke/rate-limit-caller";
import { getRequestClientIp } from "@/lib/end-users/request-client-ip";
import { logServerError } from "@/lib/http/log-server-error";
import { FORM_ANSWER_HEADERS, formJsonAnswer, formNotFound } from "./form-answer";
import { findFormAutomation } from "./find-form-automation";
import { readFormFields, type FormEncoding } from "./read-form-fields";
import { submitForm } from "./submit-form";
import { answerableError } from "@/lib/http/answerable-error";

export interface FormRouteParams {
  projectId: string;
  /** The form trigger's slug. */
  form: string;
}

/**
 * A post a browser navigates with (a plain HTML form), as opposed to a script's fetch: not JSON,
 * and, where the browser says how it sends (Sec-Fetch-Mode), a navigation. Only those are
 * redirected; a script posting FormData gets the JSON answer it can read.
 */
function isBrowserFormPost(request: Request, encoding: FormEncoding): boolean {
  if (encoding === "json") return false;
  const mode = request.headers.get("sec-fetch-mode");
  return mode === null || mode === "navigate";
}

/**
 * The public form intake, `POST /api/projects/:projectId/forms/:form` (a Fetch handler; the route
 * handler only passes the params): find the enabled form automation (404) → CORS grant from the
 * trigger's allowedOrigins → rate limit (60/min per client IP and form) → read the fields (415,
 * 413, 400) → store, then queue (submit-form.ts) → 303 to the owner's redirectUrl for a browser
 * form post, otherwise 202 `{id}`. No cookie or session is read: the route is public.
 */
export async function receiveFormSubmission(request: Request, params: FormRouteParams): Promise<Response> {
  let grant: Record<string, string> = {};
  try {
    const target = await findFormAutomation(params);
    if (!target) return formNotFound();
    const { runtime, automationId, trigger, retry } = target;
    grant = corsHeaders(request.headers.get("origin"), trigger.allowedOrigins);
    const ip = getRequestClientIp(request);
    // The public invocation limit (60/min), counted per form and client IP; honeypot posts count too.
    const rateHeaders = await rateLimitCaller({ endpointId: `form:${runtime.project.id}:${trigger.form}`, auth: "public", subject: `ip:${ip}` });
    const common = { ...grant, ...rateHeaders };

    const { fields, encoding } = await readFormFields(request);
    const result = await submitForm({
      projectId: runtime.project.id,
      automationId,
      trigger,
      retry,
      store: runtime.store,
      fields,
      client: { ip, userAgent: request.headers.get("user-agent"), origin: request.headers.get("origin") },
    });
    // The target is the owner's, fixed in the definition: nothing in the submission can choose it.
    if (trigger.redirectUrl && isBrowserFormPost(request, encoding)) {
      return new Response(null, { status: 303, headers: { ...common, location: trigger.redirectUrl, ...FORM_ANSWER_HEADERS } });
    }
    return formJsonAnswer(202, { id: result.submissionId }, common);
  } catch (error) {
    const appError = answerableError(error);
    const logged = appError.status >= 500 ? logServerError("form submission failed", request, appError, error, { projectId: params.projectId, form: params.form }) : {};
    return formJsonAnswer(appError.status, errorBody(appError), { ...grant, ...appError.headers, ...logged });
  }
}
