import { Card, CardBody } from "@/components/ui/card";
import { ButtonLink } from "@/components/ui/button";

/** The page of a project section that is not in the dashboard yet: what it will do, and what works today. */
export function ComingSoon({ section, summary, apiNote, projectId }: { section: string; summary: string; apiNote?: string; projectId: string }) {
  return (
    <Card>
      <CardBody className="flex flex-col items-center px-6 py-14 text-center">
        <span className="rounded-full bg-indigo-50 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-indigo-700">Coming soon</span>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">{section} are on their way to the dashboard</h2>
        <p className="mt-2 max-w-lg text-sm text-slate-500">{summary}</p>
        {apiNote && <p className="mt-2 max-w-lg text-sm text-slate-500">{apiNote}</p>}
        <div className="mt-6 flex gap-2">
          <ButtonLink href={`/projects/${projectId}`} variant="secondary" size="sm">
            Back to overview
          </ButtonLink>
          <ButtonLink href={`/projects/${projectId}/api-keys`} variant="ghost" size="sm">
            Manage API keys
          </ButtonLink>
        </div>
      </CardBody>
    </Card>
  );
}
