const HTML_SPECIAL_TEST = /[&<>"']/;
const HTML_SPECIAL = /[&<>"']/g;
const HTML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return HTML_SPECIAL_TEST.test(text) ? text.replace(HTML_SPECIAL, (char) => HTML_ENTITIES[char] ?? char) : text;
}
