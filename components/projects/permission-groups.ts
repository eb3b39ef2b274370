import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";

const DESCRIPTIONS: Record<Permission, string> = {
  "endpoints.invoke": "Call custom endpoints",
  "endpoints.read": "Read endpoint definitions and their executions",
  "endpoints.create": "Create endpoints and test-run flows",
  "endpoints.update": "Change and enable or disable endpoints",
  "endpoints.delete": "Delete endpoints",
  "records.read": "List and read records",
  "records.create": "Create records",
  "records.update": "Change records",
  "records.delete": "Delete records",
  "schemas.read": "Read schema definitions",
  "schemas.write": "Create, change and delete schemas",
  "automations.read": "Read automations",
  "automations.write": "Create, change and delete automations",
  "automations.run": "Run automations by hand",
  "secrets.write": "List, create, rotate and delete project secrets (never read their values)",
};

const AREA_LABELS: Record<string, string> = { endpoints: "Endpoints", records: "Records", schemas: "Schemas", automations: "Automations", secrets: "Secrets" };

export interface PermissionGroup {
  area: string;
  label: string;
  permissions: Array<{ id: Permission; description: string }>;
}

/** The fixed permission list grouped by area (the part before the dot), in the list's order. */
export function permissionGroups(): PermissionGroup[] {
  const groups = new Map<string, PermissionGroup>();
  for (const id of PERMISSIONS) {
    const area = id.split(".")[0]!;
    let group = groups.get(area);
    if (!group) {
      group = { area, label: AREA_LABELS[area] ?? area, permissions: [] };
      groups.set(area, group);
    }
    group.permissions.push({ id, description: DESCRIPTIONS[id] });
  }
  return [...groups.values()];
}
