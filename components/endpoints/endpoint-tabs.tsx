import { AppLink as Link } from "@/components/ui/app-link";
import { cn } from "@/components/ui/cn";

export interface SectionTab {
  id: string;
  label: string;
  href: string;
}

/** The views of one saved resource (an endpoint, an automation) as tabs under its header. */
export function SectionTabs({ label, tabs, active }: { label: string; tabs: readonly SectionTab[]; active: string }) {
  return (
    <nav aria-label={label} className="mb-6 border-b border-slate-200">
      <ul className="-mb-px flex gap-6">
        {tabs.map((tab) => (
          <li key={tab.id}>
            <Link
              href={tab.href}
              aria-current={active === tab.id ? "page" : undefined}
              className={cn(
                "inline-block border-b-2 px-1 pb-2.5 text-sm font-medium",
                active === tab.id ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-800",
              )}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Editor | Executions | Analytics: the views of a saved endpoint. */
export function EndpointTabs({ projectId, endpointId, active }: { projectId: string; endpointId: string; active: "editor" | "executions" | "analytics" }) {
  const base = `/projects/${projectId}/endpoints/${endpointId}`;
  const tabs = [
    { id: "editor", label: "Editor", href: base },
    { id: "executions", label: "Executions", href: `${base}/executions` },
    { id: "analytics", label: "Analytics", href: `${base}/analytics` },
  ];
  return <SectionTabs label="Endpoint" tabs={tabs} active={active} />;
}
