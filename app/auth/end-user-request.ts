/** What the end-user auth API answered, as the page shows it. */
export type EndUserAnswer = { ok: true } | { ok: false; message: string; issues: { path: string; message: string }[] };

/**
 * POSTs JSON to one of the auth schema's public routes (`verify-email`, `reset-password`) and turns
 * the answer into sentences for people: the API's own message for a bad token, plain words for
 * the rest.
 */
export async function postEndUserAuth(projectId: string, schema: string, route: string, body: unknown): Promise<EndUserAnswer> {
  let response: Response;
  try {
    response = await fetch(`/api/projects/${encodeURIComponent(projectId)}/auth/${encodeURIComponent(schema)}/${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: "The server could not be reached. Check your connection and try again.", issues: [] };
  }
  if (response.ok) {
    // An unread body keeps the request open in the browser (and the page never network-idle).
    await response.body?.cancel();
    return { ok: true };
  }
  const answer = (await response.json().catch(() => ({}))) as { error?: unknown; issues?: { path: string; message: string }[] };
  const issues = Array.isArray(answer.issues) ? answer.issues : [];
  if (response.status === 404) return { ok: false, message: "This link is not valid: the account or site it belongs to was not found.", issues };
  if (response.status === 429) return { ok: false, message: "Too many attempts. Please wait a minute and try again.", issues };
  if (response.status >= 500) return { ok: false, message: "Something went wrong on our side. Please try again later.", issues };
  const message = typeof answer.error === "string" && answer.error ? answer.error : "The request was not accepted.";
  return { ok: false, message: sentence(message), issues };
}

function sentence(text: string): string {
  const capitalized = text[0]!.toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
