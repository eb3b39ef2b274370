/** A parsed single mailbox: `Name <local@domain>` or `local@domain`. */
export interface MailAddress {
  name?: string;
  address: string;
}

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
// Characters that make an unquoted display name mean something else to a mail parser.
const UNQUOTED_NAME_FORBIDDEN = /["<>,;:@()[\]\\]/;

function isAddrSpec(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf("@");
  if (at <= 0 || value.indexOf("@") !== at) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return false;
  if (domain.length === 0 || domain.length > 253) return false;
  return domain.split(".").every((label) => DOMAIN_LABEL.test(label));
}

function parseDisplayName(raw: string): string | undefined | null {
  const name = raw.trim();
  if (name === "") return undefined;
  if (name.startsWith('"')) {
    if (!name.endsWith('"') || name.length < 2) return null;
    const inner = name.slice(1, -1);
    // Inside quotes only \" and \\ are escapes; a bare quote ends the name early.
    if (/(^|[^\\])(\\\\)*"/.test(inner)) return null;
    return inner.replace(/\\(["\\])/g, "$1");
  }
  return UNQUOTED_NAME_FORBIDDEN.test(name) ? null : name;
}

/**
 * Parses exactly one address; undefined for lists (`a@x, b@x`), group syntax, comments, quoted local
 * parts and anything with line breaks or control characters. Stricter than RFC 5322 on purpose:
 * what passes here means the same thing to every mail server and parser downstream.
 */
export function parseMailAddress(input: string): MailAddress | undefined {
  if (typeof input !== "string" || input.length > 320 || /[\u0000-\u001f\u007f]/.test(input)) return undefined;
  const value = input.trim();
  const angle = /^([^<>]*)<([^<>]*)>$/.exec(value);
  if (angle) {
    const name = parseDisplayName(angle[1] ?? "");
    const address = (angle[2] ?? "").trim();
    if (name === null || !isAddrSpec(address)) return undefined;
    return name === undefined ? { address } : { name, address };
  }
  return isAddrSpec(value) ? { address: value } : undefined;
}

export function isSingleMailAddress(input: string): boolean {
  return parseMailAddress(input) !== undefined;
}

/** `Name <a@b>` with the name quoted when it needs to be; plain `a@b` without a name. */
export function formatMailAddress(mailbox: MailAddress): string {
  if (!mailbox.name) return mailbox.address;
  const plain = /^[\p{L}\p{N} !#$%&'*+\-/=?^_`{|}~.]+$/u.test(mailbox.name);
  const name = plain ? mailbox.name : `"${mailbox.name.replace(/(["\\])/g, "\\$1")}"`;
  return `${name} <${mailbox.address}>`;
}
