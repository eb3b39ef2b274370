import { FILE_LIMITS } from "./file-limits";

const MEDIA_TYPE = /^([a-z0-9!#$&^_.+-]{1,127})\/([a-z0-9!#$&^_.+-]{1,127})$/;
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The content type recorded for an upload: the part's type without parameters other than a
 * charset, lowercased; `application/octet-stream` when absent; null when it is not a media type.
 */
export function normalizeContentType(declared: string | null): string | null {
  if (declared === null || declared.trim() === "") return "application/octet-stream";
  const [essence = "", ...parameters] = declared.split(";");
  const type = essence.trim().toLowerCase();
  if (!MEDIA_TYPE.test(type)) return null;
  const charset = parameters.map((parameter) => /^\s*charset\s*=\s*"?([A-Za-z0-9._-]{1,40})"?\s*$/i.exec(parameter)?.[1]).find(Boolean);
  const value = charset ? `${type}; charset=${charset.toLowerCase()}` : type;
  return value.length <= FILE_LIMITS.contentTypeLength ? value : null;
}

/**
 * The name a file is stored and downloaded under: the last path segment only (browsers and tools
 * sometimes send `C:\fakepath\a.png` or `../a.png`), without control characters, at most 255
 * characters (the extension kept), "file" when nothing is left.
 */
export function sanitizeFilename(filename: string | null): string {
  const base = (filename ?? "").split(/[/\\]/).pop() ?? "";
  let name = base.replace(CONTROL_CHARACTERS, "").trim();
  if (name === "" || name === "." || name === "..") return "file";
  if (name.length > FILE_LIMITS.filenameLength) {
    const dot = name.lastIndexOf(".");
    const extension = dot > 0 && name.length - dot <= 17 ? name.slice(dot) : "";
    name = name.slice(0, FILE_LIMITS.filenameLength - extension.length) + extension;
  }
  return name;
}

/**
 * Whether an upload fits a file field's `accept` list: MIME types (`image/png`), wildcards
 * (`image/*`) and extensions (`.pdf`, matched against the filename), case-insensitively. An absent
 * or empty list accepts anything.
 */
export function uploadAccepted(accept: readonly string[] | undefined, upload: { filename: string; contentType: string }): boolean {
  if (!accept || accept.length === 0) return true;
  const type = upload.contentType.split(";")[0]!.trim().toLowerCase();
  const filename = upload.filename.toLowerCase();
  return accept.some((entry) => {
    const rule = entry.toLowerCase();
    if (rule.startsWith(".")) return filename.endsWith(rule) && filename.length > rule.length;
    if (rule.endsWith("/*")) return type.startsWith(rule.slice(0, -1));
    return type === rule;
  });
}

/**
 * `attachment` with the name in RFC 5987 form (any language) and a plain ASCII fallback for old
 * clients; quotes, backslashes and non-ASCII never reach the header unescaped.
 */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
