/**
 * What a secret's envelope is bound to (lib/crypto's additional data): its project and its name,
 * so an envelope copied to another secret, another project or a project's database URL column
 * cannot be decrypted there. Project ids never contain "/", so this cannot equal another project's id.
 */
export function secretEnvelopeScope(projectId: string, name: string): { projectId: string } {
  return { projectId: `${projectId}/secrets/${name}` };
}
