/**
 * The database choice of a project form: `database.kind` radio, `database.url` text field and, where
 * the form offers it, the `database.takeOver` checkbox (sent only when ticked).
 */
export function readDatabaseInput(formData: FormData): { kind: "local" } | { kind: string; url: string; takeOver?: true } {
  const kind = String(formData.get("database.kind") ?? "local");
  if (kind === "local") return { kind: "local" };
  const url = String(formData.get("database.url") ?? "");
  return formData.get("database.takeOver") === "on" ? { kind, url, takeOver: true } : { kind, url };
}
