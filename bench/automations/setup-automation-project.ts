import { createProjectWithKey, ManagementApi, runJsonCommand } from "../setup-project";
import { COPIES_SCHEMA, EVENTS_SCHEMA } from "./names";

/**
 * Sets the automation benchmark's project up through the product: the CLI (owner, workspace,
 * project on the customer database, a management key), the management API (two schemas, one
 * record automation with one Create step, created disabled), and a pool of write keys.
 */

/** Each write key stays at or below this many calls in any minute (the records API allows 600). */
const CALLS_PER_KEY_PER_MINUTE = 480;

export const AUTOMATION_SCHEMAS = [
  {
    name: EVENTS_SCHEMA,
    kind: "collection",
    fields: [
      { name: "n", type: "integer", required: true },
      { name: "label", type: "string" },
    ],
  },
  {
    name: COPIES_SCHEMA,
    kind: "collection",
    fields: [
      { name: "sourceId", type: "string", required: true },
      { name: "n", type: "integer" },
      { name: "label", type: "string" },
    ],
  },
] as const;

/** The automation under test: every created event is copied by one Create step. */
export const COPY_AUTOMATION = {
  name: "Copy events",
  enabled: false,
  trigger: { type: "record", schema: EVENTS_SCHEMA, events: ["create"] },
  steps: [
    {
      type: "create",
      name: "copy",
      schema: COPIES_SCHEMA,
      values: { sourceId: "{{trigger.record.id}}", n: "{{trigger.record.n}}", label: "{{trigger.record.label}}" },
    },
  ],
};

export function eventBody(index: number): Record<string, unknown> {
  return { n: index, label: `event ${index}: order shipped` };
}

export interface AutomationBenchProject {
  projectId: string;
  automationId: string;
  /** Write keys (records.create), rotated one per request. */
  writeKeys: string[];
  /** Key ids, for the Redis clean-up of their rate-limit counters. */
  keyIds: string[];
  api: ManagementApi;
  setAutomationEnabled(enabled: boolean): Promise<void>;
}

/** Keys enough that round-robin rotation keeps each under the limit at `maxRate` writes a second. */
export function writeKeysFor(maxRate: number): number {
  return Math.max(1, Math.ceil((maxRate * 60) / CALLS_PER_KEY_PER_MINUTE));
}

export async function setupAutomationProject(options: {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  customerDatabaseUrl: string;
  maxWriteRate: number;
  log: (line: string) => void;
}): Promise<AutomationBenchProject> {
  const { env, log } = options;
  const { projectId, key: manager } = await createProjectWithKey({
    env,
    customerDatabaseUrl: options.customerDatabaseUrl,
    label: "Bench automations",
    keyName: "bench manager",
    permissions: "schemas.write,automations.read,automations.write",
    log,
  });
  const api = new ManagementApi(options.baseUrl, projectId, manager.key);
  for (const schema of AUTOMATION_SCHEMAS) await api.create("/schemas", schema);
  const automation = await api.create<{ id: string }>("/automations", COPY_AUTOMATION);
  log(`schemas ${AUTOMATION_SCHEMAS.map((schema) => schema.name).join(", ")} and automation ${automation.id} (record create → Create step) created, disabled`);

  const count = writeKeysFor(options.maxWriteRate);
  const { keys } = await runJsonCommand<{ keys: Array<{ id: string; key: string }> }>(
    "bench/automations/create-api-keys.ts",
    process.execPath,
    ["--import", "tsx", "bench/automations/create-api-keys.ts", projectId, String(count), "records.create"],
    env,
  );
  log(`${keys.length} write keys created (600 calls a minute each; enough for ${options.maxWriteRate} writes/s)`);

  return {
    projectId,
    automationId: automation.id,
    writeKeys: keys.map((key) => key.key),
    keyIds: [manager.id, ...keys.map((key) => key.id)],
    api,
    async setAutomationEnabled(enabled: boolean) {
      const { status, text } = await api.request("PATCH", `/automations/${automation.id}`, { enabled });
      if (status !== 200) throw new Error(`PATCH /automations/${automation.id} answered ${status}: ${text.slice(0, 300)}`);
    },
  };
}
