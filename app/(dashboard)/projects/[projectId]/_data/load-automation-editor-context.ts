import "server-only";
import { getInvocationBaseUrl } from "@/lib/http/invocation-origin";
import { loadEditorContext } from "./load-editor-context";
import type { EditorSchema } from "@/components/endpoints/step-settings";

/** IANA zones the runtime knows, UTC first (Intl lists it under Etc/ on some platforms, or not at all). */
function timeZoneNames(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((zone) => zone !== "UTC")];
}

/** What the automation editor's pickers offer (as the endpoint editor's), plus time zones and the base of form URLs. */
export async function loadAutomationEditorContext(projectId: string): Promise<{ schemas: EditorSchema[]; emailTemplates: string[]; timeZones: string[]; formsBase: string }> {
  const { schemas, emailTemplates } = await loadEditorContext(projectId);
  return { schemas, emailTemplates, timeZones: timeZoneNames(), formsBase: `${getInvocationBaseUrl()}/api/projects/${projectId}/forms/` };
}
