import type { Metadata } from "next";
import { listApiKeys } from "@/lib/auth/api-keys/list-api-keys";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/form-error";
import { PageHeader } from "@/components/ui/page-header";
import { formatDate, formatDateTime } from "@/components/ui/format-date";
import { permissionGroups } from "@/components/projects/permission-groups";
import { projectCrumbs } from "@/components/projects/project-crumbs";
import { loadProject } from "../load-project";
import { CreateApiKeyForm } from "./create-api-key-form";
import { RevokeApiKeyButton } from "./revoke-api-key-button";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const loaded = await loadProject(projectId);
  const header = (
    <PageHeader
      crumbs={projectCrumbs(loaded, "API keys")}
      title="API keys"
      description="Keys let your website, app or scripts call this project's API. Each key carries only the permissions you give it."
    />
  );
  if (!loaded.canManage) {
    return (
      <>
        {header}
        <Notice tone="info">Only workspace admins can create, see and revoke API keys. Ask an admin of {loaded.membership.workspaceName} for a key.</Notice>
      </>
    );
  }
  const keys = await listApiKeys({ projectId });
  const active = keys.filter((key) => !key.revokedAt).length;

  return (
    <>
      {header}
      <div className="space-y-6">
        <Card>
          <CardHeader title="Create an API key" description="The full key is shown once, right after you create it." />
          <CardBody>
            <CreateApiKeyForm projectId={projectId} groups={permissionGroups()} />
          </CardBody>
        </Card>

        <Card aria-labelledby="keys-heading">
          <CardHeader title={<span id="keys-heading">Keys</span>} description={`${active} active, ${keys.length - active} revoked.`} />
          {keys.length === 0 ? (
            <CardBody>
              <EmptyState title="No API keys yet" description="Create one above to call this project's endpoints and API." />
            </CardBody>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-100 text-xs whitespace-nowrap uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-5 py-2 font-medium">
                      Name
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Key
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Permissions
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Created
                    </th>
                    <th scope="col" className="px-3 py-2 font-medium">
                      Last used
                    </th>
                    <th scope="col" className="px-5 py-2 text-right font-medium">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {keys.map((key) => (
                    <tr key={key.id} className={key.revokedAt ? "bg-slate-50/60 text-slate-500" : undefined}>
                      <td className="px-5 py-3 font-medium text-slate-900">{key.name}</td>
                      <td className="px-3 py-3">
                        <code
                          className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs whitespace-nowrap text-slate-700"
                          aria-label={`Key starting ${key.prefix} and ending ${key.lastFour}`}
                        >
                          {key.prefix}…{key.lastFour}
                        </code>
                      </td>
                      <td className="max-w-xs px-3 py-3">
                        <div className="flex flex-wrap gap-1">
                          {key.permissions.map((permission) => (
                            <Badge key={permission} className="font-mono">
                              {permission}
                            </Badge>
                          ))}
                        </div>
                      </td>
                      <td className="px-3 py-3 whitespace-nowrap text-slate-500">{formatDate(key.createdAt)}</td>
                      <td className="px-3 py-3 whitespace-nowrap text-slate-500">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</td>
                      <td className="px-5 py-3 text-right">
                        {key.revokedAt ? (
                          <Badge tone="red" title={`Revoked ${formatDateTime(key.revokedAt)}`}>
                            Revoked {formatDate(key.revokedAt)}
                          </Badge>
                        ) : (
                          <div className="flex items-center justify-end gap-2">
                            <Badge tone="green">Active</Badge>
                            <RevokeApiKeyButton projectId={projectId} keyId={key.id} name={key.name} />
                          </div>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
