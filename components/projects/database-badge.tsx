import { Badge } from "@/components/ui/badge";

const LABELS = { local: "Built-in database", postgres: "PostgreSQL", mongodb: "MongoDB" } as const;

export function databaseLabel(kind: keyof typeof LABELS): string {
  return LABELS[kind];
}

export function DatabaseBadge({ kind }: { kind: keyof typeof LABELS }) {
  return <Badge tone={kind === "local" ? "neutral" : "green"}>{LABELS[kind]}</Badge>;
}
