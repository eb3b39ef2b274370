const XML_SPECIAL = /[&<>"']/g;
const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
// Characters XML 1.0 cannot carry at all, not even as a character reference: C0 controls other than
// tab, LF and CR, lone surrogates, U+FFFE and U+FFFF. One of them would make the whole answer
// malformed, so it becomes U+FFFD like any other undecodable character.
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escapes text for XML element content and quoted attribute values (either quote).
 *
 * `>` is escaped although element content would allow it: a value inside an owner's CDATA section
 * is not decoded, so entities there show literally, and the one thing a value could do in CDATA is
 * end it early with `]]>`. With `>` escaped a value never contains `]]>`, so it cannot close the
 * section and inject markup; it reads as `]]&gt;` there, the price of the template's choice.
 */
export function escapeXml(text: string): string {
  return text.replace(XML_FORBIDDEN, "\uFFFD").replace(XML_SPECIAL, (char) => XML_ENTITIES[char] ?? char);
}
