/** The database choice of a project form: `database.kind` radio and `database.url` text field. */
export function readDatabaseInput(formData: FormData): { kind: "local" } | { kind: "postgres" | "mongodb"; url: string } | { kind: string; url: string } {
  const kind = String(formData.get("database.kind") ?? "local");
  if (kind === "local") return { kind: "local" };
  return { kind, url: String(formData.get("database.url") ?? "") };
}
