import { escapeHtml } from "@/lib/flow/engine/escape-html";

/** `<base>/api/projects/<projectId>/forms/<form>`: where a form trigger takes submissions. */
export function formActionUrl(formsBase: string, form: string): string {
  return `${formsBase}${encodeURIComponent(form)}`;
}

/**
 * An HTML form to paste into a site, posting to the form's public URL. Every value placed in it is
 * escaped for a quoted attribute, so the snippet is exactly the HTML the owner should paste (and the
 * dashboard shows it as text, never as markup). The honeypot field is hidden from people, not bots.
 */
export function formSnippet(options: { actionUrl: string; honeypot: string | null }): string {
  const lines = [
    `<form action="${escapeHtml(options.actionUrl)}" method="post">`,
    `  <label>Name <input type="text" name="name" required></label>`,
    `  <label>Email <input type="email" name="email" required></label>`,
    `  <label>Message <textarea name="message"></textarea></label>`,
  ];
  if (options.honeypot) {
    lines.push(
      `  <!-- Leave empty: a submission that fills it is accepted and dropped. -->`,
      `  <div aria-hidden="true" style="position:absolute;left:-10000px">`,
      `    <input type="text" name="${escapeHtml(options.honeypot)}" tabindex="-1" autocomplete="off">`,
      `  </div>`,
    );
  }
  lines.push(`  <button type="submit">Send</button>`, `</form>`);
  return lines.join("\n");
}
