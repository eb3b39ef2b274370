import type { Metadata } from "next";
import { AppLink as Link } from "@/components/ui/app-link";
import { getAppUrl } from "@/lib/app-url";
import { invocationBase } from "@/lib/http/invocation-origin";
import { listApiKeys } from "@/lib/auth/api-keys/list-api-keys";
import { listEndpoints } from "@/lib/endpoints/list-endpoints";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { PageHeader } from "@/components/ui/page-header";
import { formatDate } from "@/components/ui/format-date";
import { DatabaseBadge } from "@/components/projects/database-badge";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { loadProject } from "./load-project";

type Params = { params: Promise<{ projectId: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { project } = await loadProject((await params).projectId);
  return { title: project.name };
}

export default async function ProjectOverviewPage({ params }: Params) {
  const { projectId } = await params;
  const loaded = await loadProject(projectId);
  const { project, canManage } = loaded;
  const activeKeys = canManage ? (await listApiKeys({ projectId })).filter((key) => !key.revokedAt).length : null;
  const [schemas, endpoints] = await Promise.all([listSchemas({ projectId }), listEndpoints({ projectId })]);
  const apiBase = `${getAppUrl()}/api/projects/${project.id}`;
  // With INVOCATION_URL, endpoints answer on their own origin, apart from the management API.
  const endpointBase = invocationBase(project.id);
  const separateEndpointOrigin = !endpointBase.startsWith(`${apiBase}/`);

  return (
    <>
      <PageHeader crumbs={projectCrumbs(loaded)} title={project.name} description={`Created ${formatDate(project.createdAt)} · ID ${project.id}`} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Card>
          <CardBody>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Database</p>
            <div className="mt-2 flex items-center gap-2">
              <DatabaseBadge kind={project.database.kind} />
            </div>
            <p className="mt-2 truncate font-mono text-xs text-slate-500" title={project.database.hint ?? undefined}>
              {project.database.hint ?? "Stored with Flowpoint"}
            </p>
          </CardBody>
        </Card>
        <Card>
          <CardBody>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Mail</p>
            <div className="mt-2">{project.mail.configured ? <Badge tone="green">Own SMTP server</Badge> : <Badge tone="amber">Local mailbox</Badge>}</div>
            <p className="mt-2 text-xs text-slate-500">
              {project.mail.configured ? "Mail from flows goes through your server." : "Mail is kept in the Mailbox until you add a server."}
            </p>
          </CardBody>
        </Card>
        <Card>
          <CardBody>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">API keys</p>
            <p className="mt-2 text-2xl font-semibold text-slate-900">{activeKeys ?? "—"}</p>
            <p className="text-xs text-slate-500">{activeKeys === null ? "Managed by workspace admins" : activeKeys === 1 ? "active key" : "active keys"}</p>
          </CardBody>
        </Card>
      </div>

      <Card className="mt-6">
        <CardHeader
          title="API base URL"
          description={
            separateEndpointOrigin
              ? "The management API lives under this address. Custom endpoints answer on their own origin, at the second address followed by their slug."
              : "Custom endpoints answer at /fn/<slug> under this address; the management API lives beside them."
          }
        />
        <CardBody className="space-y-2">
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 truncate rounded-md bg-slate-100 px-3 py-2 font-mono text-sm text-slate-800">{apiBase}</code>
            <CopyButton value={apiBase} label="Copy URL" />
          </div>
          {separateEndpointOrigin && (
            <div className="flex items-center gap-2">
              <code className="min-w-0 flex-1 truncate rounded-md bg-slate-100 px-3 py-2 font-mono text-sm text-slate-800">{endpointBase}</code>
              <CopyButton value={endpointBase} label="Copy endpoints URL" />
            </div>
          )}
        </CardBody>
      </Card>

      <Card className="mt-6">
        <CardHeader title="Getting started" />
        <CardBody>
          <ol className="space-y-3 text-sm">
            <Step
              done
              title="Attach a database"
              detail={project.database.kind === "local" ? "Using the built-in database. You can switch to your own in Settings." : "Your database is attached."}
              href={`/projects/${project.id}/settings`}
            />
            <Step done={Boolean(activeKeys)} title="Create an API key" detail="Your site sends it as a Bearer token." href={`/projects/${project.id}/api-keys`} />
            <Step
              done={schemas.length > 0}
              title="Define schemas"
              detail="Typed collections for your records, with a generated records API."
              href={`/projects/${project.id}/schemas`}
            />
            <Step
              done={endpoints.length > 0}
              title="Build a custom endpoint"
              detail="A route, a flow of steps and a response, without server code."
              href={`/projects/${project.id}/endpoints`}
            />
          </ol>
        </CardBody>
      </Card>
    </>
  );
}

function Step({ title, detail, href, done = false }: { title: string; detail: string; href?: string; done?: boolean }) {
  return (
    <li className="flex items-start gap-3">
      <span
        className={
          done ? "mt-0.5 grid size-5 shrink-0 place-items-center rounded-full bg-emerald-500 text-xs text-white" : "mt-0.5 size-5 shrink-0 rounded-full border-2 border-slate-300"
        }
        role="img"
        aria-label={done ? "Done" : "To do"}
      >
        {done && "✓"}
      </span>
      <span>
        {href ? (
          <Link href={href} className="font-medium text-slate-900 hover:text-indigo-600">
            {title}
          </Link>
        ) : (
          <span className="font-medium text-slate-900">{title}</span>
        )}
        <span className="block text-slate-500">{detail}</span>
      </span>
    </li>
  );
}
