/**
 * Every server action of the app and how e2e/tenant-isolation.spec.ts covers it. A unit test
 * (test/server-actions-inventory.test.ts) compares this list with the `export async function`s of
 * every "use server" file under app/, and the e2e compares it with the build's action manifest and
 * with the cases it runs, so a new action cannot be left out of the tenant sweep.
 *
 * - "cross-tenant": user B calls it with user A's ids (and with B's project and A's sub-ids); the
 *   e2e asserts a refusal that reveals nothing, and that A's data is unchanged.
 * - any other text: the action takes no tenant id (it acts on the caller alone); the text says why,
 *   and what the e2e does about it.
 */
export const SERVER_ACTION_COVERAGE: Record<string, Record<string, string>> = {
  "app/(auth)/sign-up/actions.ts": {
    signUpAction: "self-only: creates a new account from the form; takes no id (not called, to spare the sign-up rate limit)",
  },
  "app/(dashboard)/account/actions.ts": {
    changePasswordAction: "self-only: changes the signed-in user's own password, checked against the current one; takes no id",
  },
  "app/(dashboard)/sign-out-everywhere.ts": {
    signOutEverywhereAction: "self-only: called by B last; A's session must survive it",
  },
  "app/invitations/[token]/actions.ts": {
    acceptInvitationAction: "cross-tenant",
  },
  "app/(dashboard)/workspaces/actions.ts": {
    createWorkspaceAction: "self-only: creates a new workspace owned by the caller; takes no id",
  },
  "app/(dashboard)/workspaces/[workspaceId]/actions.ts": {
    renameWorkspaceAction: "cross-tenant",
    inviteMemberAction: "cross-tenant",
    removeMemberAction: "cross-tenant",
    createProjectAction: "cross-tenant",
    testNewProjectDatabaseAction: "cross-tenant",
  },
  "app/(dashboard)/projects/[projectId]/actions.ts": {
    updateGeneralSettingsAction: "cross-tenant",
    updateDatabaseAction: "cross-tenant",
    testDatabaseAction: "cross-tenant",
    testCurrentDatabaseAction: "cross-tenant",
    updateMailSettingsAction: "cross-tenant",
    removeMailSettingsAction: "cross-tenant",
    createApiKeyAction: "cross-tenant",
    revokeApiKeyAction: "cross-tenant",
    createSecretAction: "cross-tenant",
    rotateSecretAction: "cross-tenant",
    deleteSecretAction: "cross-tenant",
  },
  "app/(dashboard)/projects/[projectId]/records/actions.ts": {
    createRecordAction: "cross-tenant",
    updateRecordAction: "cross-tenant",
    deleteRecordAction: "cross-tenant",
    searchRecordChoicesAction: "cross-tenant",
    findTakenUniqueValuesAction: "cross-tenant",
  },
  "app/(dashboard)/projects/[projectId]/schemas/actions.ts": {
    createSchemaAction: "cross-tenant",
    updateSchemaAction: "cross-tenant",
    deleteSchemaAction: "cross-tenant",
  },
  "app/(dashboard)/projects/[projectId]/endpoints/actions.ts": {
    createEndpointAction: "cross-tenant",
    updateEndpointAction: "cross-tenant",
    setEndpointEnabledAction: "cross-tenant",
    deleteEndpointAction: "cross-tenant",
    testRunEndpointAction: "cross-tenant",
    exportEndpointsAction: "cross-tenant",
    importEndpointsAction: "cross-tenant",
  },
  "app/(dashboard)/projects/[projectId]/automations/actions.ts": {
    createAutomationAction: "cross-tenant",
    updateAutomationAction: "cross-tenant",
    setAutomationEnabledAction: "cross-tenant",
    deleteAutomationAction: "cross-tenant",
    runAutomationNowAction: "cross-tenant",
    runAutomationAgainAction: "cross-tenant",
    exportAutomationsAction: "cross-tenant",
    importAutomationsAction: "cross-tenant",
  },
};

/** The names of the actions the e2e must call across tenants. */
export function crossTenantActionNames(): string[] {
  return Object.values(SERVER_ACTION_COVERAGE)
    .flatMap((actions) => Object.entries(actions))
    .filter(([, coverage]) => coverage === "cross-tenant")
    .map(([name]) => name)
    .sort();
}
