import type { Metadata } from "next";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Notice } from "@/components/ui/form-error";
import { PageHeader } from "@/components/ui/page-header";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { loadProject } from "../load-project";
import { DatabaseSettings } from "./database-settings";
import { GeneralSettingsForm } from "./general-settings-form";
import { MailSettingsForm } from "./mail-settings-form";
import { SecretsSettings } from "./secrets-settings";
import { listSecrets } from "@/lib/secrets/list-secrets";
import { readStoredMailSettings, toMailSettingsView } from "./read-stored-mail-settings";

export const metadata: Metadata = { title: "Project settings" };

export default async function ProjectSettingsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const loaded = await loadProject(projectId);
  const { project, canManage, row } = loaded;
  const mail = canManage ? toMailSettingsView(readStoredMailSettings(row)) : null;
  const secrets = canManage ? await listSecrets({ projectId: project.id }) : null;

  return (
    <>
      <PageHeader crumbs={projectCrumbs(loaded, "Settings")} title="Settings" />
      {!canManage && (
        <Notice tone="info" className="mb-6">
          Only workspace admins can change project settings.
        </Notice>
      )}
      <div className="space-y-6">
        <Card>
          <CardHeader title="General" />
          <CardBody>
            <GeneralSettingsForm projectId={project.id} name={project.name} logRetentionDays={project.logRetentionDays} openapiPublic={project.openapiPublic} canEdit={canManage} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Database"
            description="Where this project's records, end users and execution logs live. The connection URL is stored encrypted and shown only masked."
          />
          <CardBody>
            <DatabaseSettings projectId={project.id} kind={project.database.kind} hint={project.database.hint} canEdit={canManage} />
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Mail server" description="The SMTP server this project's flows and end-user emails are sent through." />
          <CardBody>
            {canManage ? (
              <MailSettingsForm projectId={project.id} settings={mail} canEdit />
            ) : (
              <p className="text-sm text-slate-600">
                {project.mail.configured ? "This project sends mail through its own SMTP server." : "This project has no mail server; its mail goes to the Mailbox."}
              </p>
            )}
          </CardBody>
        </Card>
        <Card>
          <CardHeader
            title="Secrets"
            description="API keys and tokens for outbound calls. Use them as {{secrets.NAME}} in the URL, headers and body of HTTP, webhook and email steps; values are stored encrypted, masked in logs and never shown again."
          />
          <CardBody>
            {secrets ? (
              <SecretsSettings projectId={project.id} secrets={secrets.map(({ name, hint, updatedAt }) => ({ name, hint, updatedAt }))} />
            ) : (
              <p className="text-sm text-slate-600">Only workspace admins can see and manage this project&apos;s secrets.</p>
            )}
          </CardBody>
        </Card>
      </div>
    </>
  );
}
