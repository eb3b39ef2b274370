import { AppError } from "@/lib/errors";
import type { FlowStepOf } from "@/lib/flow/flow-definition";
import { escapeHtml } from "@/lib/flow/engine/escape-html";
import { renderTemplate, type TemplateScope } from "@/lib/flow/engine/render-template";
import { requireService } from "@/lib/flow/engine/require-service";
import type { StepRunContext } from "@/lib/flow/engine/step-runner";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { secretNamesIn } from "@/lib/flow/secret-references";
import { scopeWithSecrets } from "../shared/with-step-secrets";

const EMAIL_ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

function renderRecipients(template: string, scope: StepRunContext["context"]): string[] {
  const rendered = renderTemplate(template, scope);
  if (/[\r\n\0]/.test(rendered)) throw new AppError("validation_failed", "the recipient contains a line break after rendering");
  const recipients = rendered
    .split(/[,;]/)
    .map((address) => address.trim())
    .filter((address) => address !== "");
  if (recipients.length === 0) throw new AppError("validation_failed", "the email has no recipient after rendering");
  if (recipients.length > FLOW_LIMITS.maxEmailRecipients) {
    throw new AppError("validation_failed", `an email step sends to at most ${FLOW_LIMITS.maxEmailRecipients} recipients`);
  }
  for (const address of recipients) {
    if (!EMAIL_ADDRESS.test(address)) throw new AppError("validation_failed", `"${address.slice(0, 200)}" is not an email address`);
  }
  return recipients;
}

/**
 * Sends one email: a saved template (subject, html, text) or the inline subject and body. The
 * subject and text are rendered as text, HTML with every inserted value HTML-escaped. Output: null.
 */
export async function runEmail(step: FlowStepOf<"email">, { context, services, signal }: StepRunContext): Promise<null> {
  const sendMail = requireService(services.sendMail, "sending email");
  const to = renderRecipients(step.to, context);

  let subject: string;
  let html: string | null = null;
  let text: string | null = null;
  let bodyScope: TemplateScope = context;
  if (step.template !== null) {
    const templates = requireService(services.emailTemplates, "saved email templates");
    const template = await templates.get(step.template, { signal });
    if (template === null) throw new AppError("not_found", `email template "${step.template}" does not exist`);
    subject = template.subject;
    html = template.html ?? null;
    text = template.text ?? null;
  } else {
    // Only the inline body may read secrets (refused elsewhere when saved); saved templates never do.
    bodyScope = await scopeWithSecrets(secretNamesIn([step.body]), { context, services, signal });
    subject = step.subject;
    if (step.format === "html") html = step.body;
    else text = step.body;
  }

  await sendMail(
    {
      to,
      // A subject is one header line.
      subject: renderTemplate(subject, context)
        .replace(/[\r\n\0]+/g, " ")
        .trim(),
      ...(html !== null ? { html: renderTemplate(html, bodyScope, { escape: escapeHtml }) } : {}),
      ...(text !== null ? { text: renderTemplate(text, bodyScope) } : {}),
    },
    { signal },
  );
  return null;
}
