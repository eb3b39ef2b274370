import { answerFormPreflight } from "@/lib/forms/answer-form-preflight";
import { receiveFormSubmission, type FormRouteParams } from "@/lib/forms/receive-form-submission";

/*
 * The public form intake (docs/DESIGN.md "Automations"): no API key, no session, no CSRF check — it
 * never reads a cookie, and on the invocation origin (INVOCATION_URL) requests arrive without one.
 */
type Context = { params: Promise<FormRouteParams> };

export async function POST(request: Request, context: Context): Promise<Response> {
  return receiveFormSubmission(request, await context.params);
}

export async function OPTIONS(request: Request, context: Context): Promise<Response> {
  return answerFormPreflight(request, await context.params);
}
