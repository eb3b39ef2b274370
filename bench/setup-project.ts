import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { authorSeed, ENDPOINTS, SCHEMAS, SEED_AUTHORS, SEED_TICKETS, ticketSeed, type EndpointKey } from "./fixtures";

/**
 * Sets the benchmark project up through the product's own interfaces: the command line (owner,
 * workspace, project on the customer database, an API key), then the management API over HTTP
 * (schemas, seed records, endpoints).
 */

export interface BenchEndpoint {
  id: string;
  slug: string;
  version: number;
}

export interface BenchProject {
  projectId: string;
  apiKeyId: string;
  endpoints: Record<EndpointKey, BenchEndpoint>;
  /** How the seed records got in: "api" or "services" (the fallback when the records route is missing). */
  seededThrough: "api" | "services";
}

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs a command that prints one JSON line last, and answers that line parsed. */
export async function runJsonCommand<T>(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  const result = await runCommand(command, args, env);
  const lastLine = result.stdout.trim().split("\n").pop() ?? "";
  if (result.code !== 0) throw new Error(`${label} failed (exit ${result.code}): ${result.stderr.trim() || lastLine}`);
  try {
    return JSON.parse(lastLine) as T;
  } catch {
    throw new Error(`${label} printed no JSON line: ${result.stdout.slice(0, 500)}`);
  }
}

export function runCli<T>(args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  return runJsonCommand<T>(`npm run cli -- ${args[0]} ${args[1] ?? ""}`.trim(), "npm", ["run", "--silent", "cli", "--", ...args], env);
}

export class ManagementApi {
  constructor(
    private readonly baseUrl: string,
    private readonly projectId: string,
    private readonly key: string,
  ) {}

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
    const response = await fetch(`${this.baseUrl}/api/projects/${this.projectId}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON (a framework error page)
    }
    return { status: response.status, json, text };
  }

  async create<T>(path: string, body: unknown): Promise<T> {
    const { status, json, text } = await this.request("POST", path, body);
    if (status !== 201) throw new Error(`POST ${path} answered ${status}: ${text.slice(0, 500)}`);
    return json as T;
  }
}

/** Runs `work` over `items` with at most `limit` at a time, keeping the order of results. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  });
  await Promise.all(workers);
  return results;
}

async function seedThroughApi(api: ManagementApi): Promise<boolean> {
  // A route that does not exist answers Next's 404 page (not JSON): then the services seed instead.
  const probe = await api.request("GET", "/records/authors?perPage=1");
  if (probe.status === 404 && probe.json === null) return false;
  const authorIds = await mapLimited(Array.from({ length: SEED_AUTHORS }), 8, async (_, index) => (await api.create<{ id: string }>("/records/authors", authorSeed(index))).id);
  await mapLimited(Array.from({ length: SEED_TICKETS }), 8, async (_, index) => api.create("/records/tickets", ticketSeed(index, authorIds)));
  return true;
}

/**
 * An owner, workspace and project on the customer database (`npm run cli -- setup`) and one API key
 * with `permissions` (`npm run cli -- api-keys create`): what each benchmark's setup starts from.
 */
export async function createProjectWithKey(options: {
  env: NodeJS.ProcessEnv;
  customerDatabaseUrl: string;
  /** Names the workspace and project ("<label> <random suffix>"). */
  label: string;
  keyName: string;
  /** Comma-separated, as the CLI takes them. */
  permissions: string;
  log: (line: string) => void;
}): Promise<{ projectId: string; key: { id: string; key: string } }> {
  const suffix = randomBytes(4).toString("hex");
  const ids = await runCli<{ projectId: string }>(
    [
      "setup",
      "--email",
      `bench-${suffix}@example.com`,
      "--password",
      `bench-${randomBytes(12).toString("hex")}`,
      "--workspace",
      `${options.label} ${suffix}`,
      "--project",
      `${options.label} ${suffix}`,
      "--database-url",
      options.customerDatabaseUrl,
    ],
    options.env,
  );
  options.log(`project ${ids.projectId} created (npm run cli -- setup)`);
  const key = await runCli<{ id: string; key: string }>(
    ["api-keys", "create", "--project", ids.projectId, "--name", options.keyName, "--permissions", options.permissions],
    options.env,
  );
  return { projectId: ids.projectId, key };
}

export async function setupBenchProject(options: {
  baseUrl: string;
  /** The app's environment (platform database, secrets, outbound allow-list, Redis). */
  env: NodeJS.ProcessEnv;
  customerDatabaseUrl: string;
  log: (line: string) => void;
}): Promise<BenchProject> {
  const { env, log } = options;
  const { projectId, key } = await createProjectWithKey({
    env,
    customerDatabaseUrl: options.customerDatabaseUrl,
    label: "Bench",
    keyName: "bench",
    permissions: "schemas.write,records.create,records.read,endpoints.create,endpoints.update,endpoints.read",
    log,
  });
  const api = new ManagementApi(options.baseUrl, projectId, key.key);
  for (const schema of SCHEMAS) await api.create("/schemas", schema);
  log(`schemas ${SCHEMAS.map((schema) => schema.name).join(", ")} created`);

  let seededThrough: BenchProject["seededThrough"] = "api";
  if (!(await seedThroughApi(api))) {
    seededThrough = "services";
    log("the records API route is missing: seeding with the record services (bench/seed-records-directly.ts)");
    await runJsonCommand("bench/seed-records-directly.ts", process.execPath, ["--import", "tsx", "bench/seed-records-directly.ts", projectId], env);
  }
  log(`${SEED_AUTHORS} authors and ${SEED_TICKETS} tickets seeded (${seededThrough === "api" ? "records API" : "record services"})`);

  const endpoints = {} as Record<EndpointKey, BenchEndpoint>;
  for (const [name, definition] of Object.entries(ENDPOINTS) as [EndpointKey, (typeof ENDPOINTS)[EndpointKey]][]) {
    const created = await api.create<{ id: string; slug: string; version?: number }>("/endpoints", definition);
    endpoints[name] = { id: created.id, slug: created.slug, version: created.version ?? 1 };
  }
  log(
    `endpoints ${Object.values(endpoints)
      .map((endpoint) => endpoint.slug)
      .join(", ")} created`,
  );
  return { projectId: projectId, apiKeyId: key.id, endpoints, seededThrough };
}
