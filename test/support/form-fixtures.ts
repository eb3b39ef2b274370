import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { automationInputSchema, type FormTrigger } from "@/lib/automations/automation-definition";
import { toAutomationColumns } from "@/lib/automations/automation-row";
import { newId } from "@/lib/ids";
import { getPlatformDb } from "@/lib/platform-db/client";
import { automations } from "@/lib/platform-db/schema";
import { bumpProjectGeneration } from "@/lib/projects/project-generation";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import type { StoredRecord } from "@/lib/records/record-store";
import { FORM_SUBMISSIONS_COLLECTION } from "@/lib/forms/form-submission";

/**
 * Test helpers of the form intake. Automations are inserted straight into the platform database
 * (validated by the definition's own schema), so these suites do not depend on the management API.
 */
export async function insertFormAutomation(options: {
  projectId: string;
  trigger: Partial<Omit<FormTrigger, "type">> & { form: string };
  steps?: unknown[];
  enabled?: boolean;
  name?: string;
}): Promise<string> {
  const input = automationInputSchema.parse({
    name: options.name ?? `Form ${options.trigger.form}`,
    enabled: options.enabled ?? true,
    trigger: { type: "form", ...options.trigger },
    steps: options.steps ?? [],
  });
  const id = newId("automation");
  const db = await getPlatformDb();
  await db.insert(automations).values({ id, projectId: options.projectId, ...toAutomationColumns(input) });
  await bumpProjectGeneration(options.projectId);
  return id;
}

/** An automation with another trigger (for the "not a form automation" answers). */
export async function insertManualAutomation(projectId: string): Promise<string> {
  const input = automationInputSchema.parse({ name: "Manual", trigger: { type: "manual" }, steps: [] });
  const id = newId("automation");
  const db = await getPlatformDb();
  await db.insert(automations).values({ id, projectId, ...toAutomationColumns(input) });
  await bumpProjectGeneration(projectId);
  return id;
}

/** The stored submissions of an automation, oldest first, straight from the customer database. */
export async function readStoredSubmissions(projectId: string, automationId: string): Promise<StoredRecord[]> {
  const store = await getProjectRecordStore({ projectId });
  return store.find(FORM_SUBMISSIONS_COLLECTION, { where: [{ field: "automationId", op: "eq", value: automationId }], sort: [{ field: "id", direction: "asc" }] });
}

/**
 * A POST as a browser navigating with a plain HTML form sends it (Sec-Fetch-Mode: navigate), over
 * node:http: Node's fetch always says `cors` there, whatever the caller sets.
 */
export function browserFormPost(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        // A header given as "" is left out (a browser that sends no Sec-Fetch-* headers).
        headers: Object.fromEntries(
          Object.entries({
            "content-type": "application/x-www-form-urlencoded",
            "content-length": String(Buffer.byteLength(body)),
            "sec-fetch-mode": "navigate",
            "sec-fetch-dest": "document",
            accept: "text/html,application/xhtml+xml",
            ...headers,
          }).filter(([, value]) => value !== ""),
        ),
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A JSON request body for fetch. */
export function jsonBody(value: unknown): RequestInit & { headers: Record<string, string> } {
  return { headers: { "content-type": "application/json" }, body: JSON.stringify(value) };
}

/** The form intake of a served project: its URL per form, and POSTs that do not follow redirects (the 303 is the answer). */
export function formIntake(serverUrl: () => string, defaultProjectId: () => string) {
  const url = (form: string, projectId = defaultProjectId()) => `${serverUrl()}/api/projects/${projectId}/forms/${form}`;
  return {
    url,
    post: (form: string, init: RequestInit): Promise<Response> => fetch(url(form), { method: "POST", redirect: "manual", ...init }),
  };
}
