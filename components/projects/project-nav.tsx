"use client";

import { AppLink as Link } from "@/components/ui/app-link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

/** Sections of a project; those another part of the product will fill say so. */
export const PROJECT_SECTIONS = [
  { segment: "", label: "Overview", ready: true },
  { segment: "endpoints", label: "Endpoints", ready: true },
  { segment: "schemas", label: "Schemas", ready: true },
  { segment: "records", label: "Records", ready: true },
  { segment: "automations", label: "Automations", ready: true },
  { segment: "executions", label: "Executions", ready: true },
  { segment: "api-keys", label: "API keys", ready: true },
  { segment: "api-reference", label: "API reference", ready: true },
  { segment: "settings", label: "Settings", ready: true },
] as const;

export function ProjectNav({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  const base = `/projects/${projectId}`;
  return (
    <nav aria-label="Project">
      <ul className="flex gap-1 overflow-x-auto md:flex-col">
        {PROJECT_SECTIONS.map((section) => {
          const href = section.segment ? `${base}/${section.segment}` : base;
          const active = section.segment ? pathname === href || pathname.startsWith(`${href}/`) : pathname === base;
          return (
            <li key={section.label}>
              <Link
                href={href}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm whitespace-nowrap",
                  active ? "bg-white font-medium text-indigo-700 shadow-sm ring-1 ring-slate-200" : "text-slate-600 hover:bg-white hover:text-slate-900",
                )}
              >
                {section.label}
                {!section.ready && <span className="rounded bg-slate-100 px-1.5 py-0.5 text-[10px] font-medium uppercase tracking-wide text-slate-500">Coming soon</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
