import { cache } from "react";
import { notFound } from "next/navigation";
import { listSchemas } from "@/lib/schemas/list-schemas";
import type { StoredSchema } from "@/lib/schemas/stored-schema";
import type { Crumb } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { loadProject, type LoadedProject } from "../../load-project";

/** The schema whose records a page shows, after the membership check; components and unknown names are 404. */
export const loadRecordSchema = cache(
  async (projectId: string, rawName: string): Promise<{ loaded: LoadedProject; schema: StoredSchema; schemas: StoredSchema[]; crumbs: Crumb[] }> => {
    const loaded = await loadProject(projectId);
    const name = decodeURIComponent(rawName);
    const schemas = await listSchemas({ projectId: loaded.project.id });
    const schema = schemas.find((candidate) => candidate.name === name);
    if (!schema || schema.kind === "component") notFound();
    const crumbs = projectCrumbs(loaded, "Records");
    crumbs[crumbs.length - 1] = { label: "Records", href: `/projects/${projectId}/records` };
    crumbs.push({ label: schema.name, href: `/projects/${projectId}/records/${schema.name}` });
    return { loaded, schema, schemas, crumbs };
  },
);
