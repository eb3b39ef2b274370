import { AppError } from "@/lib/errors";
import type { TemplateScope } from "@/lib/flow/engine/render-template";
import { requireService } from "@/lib/flow/engine/require-service";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { secretNamesIn } from "@/lib/flow/secret-references";

/** The secrets an outbound request names: in its URL, header values and body, the fields that may hold them. */
export function requestSecretNames(request: { url: string; headers: Readonly<Record<string, string>>; body: string }): string[] {
  return secretNamesIn([request.url, ...Object.values(request.headers), request.body]);
}

/**
 * The scope an outbound step renders its URL, headers and body with: the run context, plus the
 * decrypted values of the secrets they name, resolved now, at the moment of the call (the engine
 * masks them in whatever comes back). A secret the project does not have fails the step naming it,
 * never its value. Only outbound runners call this: the run context itself never holds secrets.
 */
export async function scopeWithSecrets(names: readonly string[], run: Pick<StepRunContext, "context" | "services" | "signal">): Promise<TemplateScope> {
  if (names.length === 0) return run.context;
  const secrets = requireService(run.services.secrets, "project secrets");
  const values = await secrets.resolve(names, { signal: run.signal });
  const missing = names.filter((name) => !Object.hasOwn(values, name));
  if (missing.length > 0) {
    const list = missing.map((name) => `"${name}"`).join(", ");
    throw new AppError(
      "not_found",
      `the secret${missing.length > 1 ? "s" : ""} ${list} ${missing.length > 1 ? "are" : "is"} not defined in this project (create it in the project settings)`,
    );
  }
  return { ...run.context, secrets: values };
}
