import { and, eq, isNull } from "drizzle-orm";
import { toAuthenticatedApiKey, type AuthenticatedApiKey } from "@/lib/auth/api-keys/authenticate-api-key";
import { parseFlowOrThrow, type FlowStep } from "@/lib/flow/flow-definition";
import { log } from "@/lib/log";
import { getPlatformDb } from "@/lib/platform-db/client";
import { apiKeys, automations, endpoints, projects, schemaDefinitions } from "@/lib/platform-db/schema";
import type { AutomationDefinition, RecordEventType } from "@/lib/automations/automation-definition";
import { toAutomationDefinition } from "@/lib/automations/automation-row";
import { toStoredSchema, type StoredSchema } from "@/lib/schemas/stored-schema";
import { getRecordStore } from "@/lib/records/get-record-store";
import type { RecordStore } from "@/lib/records/record-store";
import { getProjectDatabaseTarget } from "@/lib/projects/get-project-database-target";
import type { EndpointDefinition } from "../endpoint-definition";
import { toEndpointDefinition } from "../endpoint-row";
import { endpointInputSpecSchema } from "../endpoint-input";
import { compileInputCheck, type InputCheck } from "./compile-input-check";
import { readProjectGeneration } from "@/lib/projects/project-generation";

/** An enabled endpoint ready to run: the definition with its steps parsed once. */
export interface RuntimeEndpoint {
  definition: EndpointDefinition;
  /** Null when the stored flow no longer validates (it then answers 500, logged). */
  steps: readonly FlowStep[] | null;
  cacheable: boolean;
  /** The typed input's checks, compiled once per load; null when the endpoint declares none (no cost per call). */
  input: InputCheck | null;
}

/** An automation ready to run: the definition with its steps parsed once. */
export interface RuntimeAutomation {
  definition: AutomationDefinition;
  /** Null when the stored flow no longer validates (its runs fail, logged). */
  steps: readonly FlowStep[] | null;
}

/**
 * The project's automations; the enabled ones grouped the way events look them up, so a record write or a
 * form post never reads the platform database to find what it triggers.
 */
export interface RuntimeAutomations {
  /** Every automation, disabled ones too (a manual run may start a disabled automation). */
  byId: Map<string, RuntimeAutomation>;
  /** Form slug → its automation. */
  forms: Map<string, RuntimeAutomation>;
  /** `${schema} ${event}` → the automations it triggers. */
  records: Map<string, RuntimeAutomation[]>;
  schedules: RuntimeAutomation[];
}

export function recordTriggerKey(schema: string, event: RecordEventType): string {
  return `${schema} ${event}`;
}

/** What the hot path needs of a project, loaded in one go and cached in process. */
export interface ProjectRuntime {
  project: typeof projects.$inferSelect;
  generation: string;
  loadedAt: number;
  /** `${method} ${slug}` → endpoint. */
  routes: Map<string, RuntimeEndpoint>;
  /** The project's schema definitions, for the records service inside flows. */
  schemas: StoredSchema[];
  /** The customer database handle (its URL decrypted once per load, not per call). */
  store: RecordStore;
  automations: RuntimeAutomations;
  /**
   * The project's live API keys by hash, so that a call with a key reads no platform table.
   * Creating and revoking a key bumps the generation.
   */
  apiKeys: Map<string, AuthenticatedApiKey>;
}

/**
 * Definitions are cached per project and checked against the project's generation in the shared
 * key-value store on every call, so an edit is visible to the next call on every instance. Every
 * change the hot path depends on bumps the generation: endpoints, schemas, automations, API keys
 * and project settings.
 * The age limit bounds staleness while that store is unreachable (or dropped a bump). A runtime
 * past it whose generation still matches keeps answering while a fresh one loads in the background,
 * however long the project was quiet: a reload (five platform reads, 20–300 ms under load, on
 * connections the pool may have closed meanwhile) then stalls no call. Waiting for it held every
 * call of the project once per age limit, and every call that came after a pause of over 40 s.
 * Only once the reloads have failed for longer than a grace (the platform database down) do calls
 * wait for a load again, as they do for a new generation.
 */
export const RUNTIME_MAX_AGE_MS = 30_000;
/** How long a runtime past its age answers while the reloads it started keep failing. */
export const RUNTIME_REFRESH_GRACE_MS = 10_000;
const MAX_PROJECTS = 5_000;

const cache = new Map<string, ProjectRuntime>();
const loading = new Map<string, Promise<ProjectRuntime | null>>();
/** A cached runtime's reloads past its age: when the first began, when the last failed. A successful reload replaces the runtime. */
interface RefreshAttempts {
  startedAt: number;
  failedAt?: number;
}
const refreshAttempts = new WeakMap<ProjectRuntime, RefreshAttempts>();

/**
 * Past its age, and its reloads have been failing for longer than the grace: no longer answers.
 * A reload that failed before a quiet spell longer than the grace says nothing of now: the next
 * call answers and tries again rather than wait.
 */
function refreshOverdue(runtime: ProjectRuntime, now: number): boolean {
  const attempts = refreshAttempts.get(runtime);
  return attempts?.failedAt !== undefined && now - attempts.failedAt < RUNTIME_REFRESH_GRACE_MS && now - attempts.startedAt >= RUNTIME_REFRESH_GRACE_MS;
}

function toRuntimeEndpoint(definition: EndpointDefinition): RuntimeEndpoint {
  const steps = parseStoredSteps(definition.steps, { endpointId: definition.id });
  const input = compileStoredInput(definition);
  return {
    definition,
    // An input that no longer validates must not let calls through unchecked: the endpoint then answers as an invalid flow does.
    steps: input === "invalid" ? null : steps,
    cacheable: definition.method === "GET" && definition.auth === "public" && definition.cacheSeconds > 0,
    input: input === "invalid" ? null : input,
  };
}

function compileStoredInput(definition: EndpointDefinition): InputCheck | null | "invalid" {
  if (definition.input === null || definition.input === undefined) return null;
  const parsed = endpointInputSpecSchema.safeParse(definition.input);
  if (!parsed.success) {
    log.error("stored endpoint input is invalid", { endpointId: definition.id, issues: parsed.error.issues.length });
    return "invalid";
  }
  return compileInputCheck(parsed.data);
}

function parseStoredSteps(steps: unknown, owner: Record<string, string>): readonly FlowStep[] | null {
  try {
    return parseFlowOrThrow(steps);
  } catch (error) {
    log.error("stored flow is invalid", { ...owner, error });
    return null;
  }
}

function groupAutomations(definitions: AutomationDefinition[]): RuntimeAutomations {
  const grouped: RuntimeAutomations = { byId: new Map(), forms: new Map(), records: new Map(), schedules: [] };
  for (const definition of definitions) {
    const automation: RuntimeAutomation = { definition, steps: parseStoredSteps(definition.steps, { automationId: definition.id }) };
    grouped.byId.set(definition.id, automation);
    if (!definition.enabled) continue;
    const trigger = definition.trigger;
    if (trigger.type === "form") grouped.forms.set(trigger.form, automation);
    else if (trigger.type === "schedule") grouped.schedules.push(automation);
    else if (trigger.type === "record") {
      for (const event of trigger.events) {
        const key = recordTriggerKey(trigger.schema, event);
        const list = grouped.records.get(key);
        if (list) list.push(automation);
        else grouped.records.set(key, [automation]);
      }
    }
  }
  return grouped;
}

async function loadProjectRuntime(projectId: string, generation: string): Promise<ProjectRuntime | null> {
  const db = await getPlatformDb();
  const [projectRows, endpointRows, schemaRows, automationRows, keyRows] = await Promise.all([
    db.select().from(projects).where(eq(projects.id, projectId)).limit(1),
    db
      .select()
      .from(endpoints)
      .where(and(eq(endpoints.projectId, projectId), eq(endpoints.enabled, true))),
    db.select().from(schemaDefinitions).where(eq(schemaDefinitions.projectId, projectId)),
    db.select().from(automations).where(eq(automations.projectId, projectId)),
    db
      .select({ id: apiKeys.id, projectId: apiKeys.projectId, keyHash: apiKeys.keyHash, permissions: apiKeys.permissions })
      .from(apiKeys)
      .where(and(eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt))),
  ]);
  const project = projectRows[0];
  if (!project) return null;
  const routes = new Map<string, RuntimeEndpoint>();
  for (const row of endpointRows) routes.set(`${row.method} ${row.slug}`, toRuntimeEndpoint(toEndpointDefinition(row)));
  const store = getRecordStore(getProjectDatabaseTarget(project));
  return {
    project,
    generation,
    loadedAt: Date.now(),
    routes,
    schemas: schemaRows.map(toStoredSchema),
    store,
    automations: groupAutomations(automationRows.map(toAutomationDefinition)),
    apiKeys: new Map(keyRows.map((row) => [row.keyHash, toAuthenticatedApiKey(row)])),
  };
}

/**
 * The runtime this instance holds for a project, without checking its generation: possibly stale.
 * Only for work that is redone when the fresh runtime differs (early-invocation-work.ts).
 */
export function peekProjectRuntime(projectId: string): ProjectRuntime | undefined {
  const cached = cache.get(projectId);
  if (!cached) return undefined;
  // Only a runtime past its age has reload attempts: a fresh one costs the calls no lookup of them.
  const now = Date.now();
  return now - cached.loadedAt < RUNTIME_MAX_AGE_MS || !refreshOverdue(cached, now) ? cached : undefined;
}

/**
 * The project's runtime, fresh for its current generation; null when the project does not exist.
 * `generationMaxAgeMs`: how old a read of the shared generation may be (background work);
 * `watchedGeneration`: a read may be reused until a bump's message says otherwise (API key calls of
 * the management and records APIs). See readProjectGeneration. Other requests read it.
 */
export async function getProjectRuntime(projectId: string, options: { generationMaxAgeMs?: number; watchedGeneration?: boolean } = {}): Promise<ProjectRuntime | null> {
  const generation = await readProjectGeneration(projectId, { sharedMaxAgeMs: options.generationMaxAgeMs, watched: options.watchedGeneration });
  const cached = cache.get(projectId);
  if (cached && cached.generation === generation) {
    const now = Date.now();
    if (now - cached.loadedAt < RUNTIME_MAX_AGE_MS) return cached;
    if (!refreshOverdue(cached, now)) {
      let attempts = refreshAttempts.get(cached);
      if (!attempts || (attempts.failedAt !== undefined && now - attempts.failedAt >= RUNTIME_REFRESH_GRACE_MS)) {
        attempts = { startedAt: now };
        refreshAttempts.set(cached, attempts);
      }
      if (!loading.has(loadKey(projectId, generation))) {
        const failing = attempts;
        loadRuntimeOnce(projectId, generation).catch((error: unknown) => {
          failing.failedAt = Date.now();
          log.warn("project runtime could not be refreshed: the cached one answers meanwhile", { projectId, error });
        });
      }
      return cached;
    }
    // The calls that wait keep the failing streak going, so that an outage does not let the stale runtime answer again.
    const attempts = refreshAttempts.get(cached)!;
    return loadRuntimeOnce(projectId, generation).catch((error: unknown) => {
      attempts.failedAt = Date.now();
      throw error;
    });
  }
  return loadRuntimeOnce(projectId, generation);
}

function loadKey(projectId: string, generation: string): string {
  return `${projectId}@${generation}`;
}

/** Loads a generation's runtime into the cache; calls that ask while it loads share the load. */
function loadRuntimeOnce(projectId: string, generation: string): Promise<ProjectRuntime | null> {
  const key = loadKey(projectId, generation);
  let pending = loading.get(key);
  if (!pending) {
    pending = loadProjectRuntime(projectId, generation).then((runtime) => {
      if (runtime) {
        if (cache.size >= MAX_PROJECTS && !cache.has(projectId)) cache.delete(cache.keys().next().value!);
        cache.set(projectId, runtime);
      } else {
        cache.delete(projectId);
      }
      return runtime;
    });
    loading.set(key, pending);
    void pending.finally(() => loading.delete(key)).catch(() => undefined);
  }
  return pending;
}
