import { SectionTabs } from "@/components/endpoints/endpoint-tabs";

/** Editor | Runs (| Submissions for form automations): the views of a saved automation. */
export function AutomationTabs({ projectId, automationId, form, active }: { projectId: string; automationId: string; form: boolean; active: "editor" | "runs" | "submissions" }) {
  const base = `/projects/${projectId}/automations/${automationId}`;
  const tabs = [
    { id: "editor", label: "Editor", href: base },
    { id: "runs", label: "Runs", href: `${base}/runs` },
    ...(form ? [{ id: "submissions", label: "Submissions", href: `${base}/submissions` }] : []),
  ];
  return <SectionTabs label="Automation" tabs={tabs} active={active} />;
}
