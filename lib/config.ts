import { z } from "zod";

/**
 * The one place that reads the environment. Every variable is validated here, and a bad one stops
 * start-up with an error that names it. Secrets are kept in this object and never logged.
 */
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

function urlWithSchemes(schemes: string[]) {
  return optionalString.refine(
    (value) => {
      if (value === undefined) return true;
      try {
        return schemes.includes(new URL(value).protocol.replace(/:$/, ""));
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${schemes.map((s) => `${s}://`).join(" or ")}` },
  );
}

/** `host[:port]` of a URL, null when it does not parse (its own rule reports that). */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

const encryptionKeySpec = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=$/;

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATA_DIR: z.string().min(1).default(".data"),
    DATABASE_URL: urlWithSchemes(["postgres", "postgresql"]),
    REDIS_URL: urlWithSchemes(["redis", "rediss"]),
    UPSTASH_REDIS_REST_URL: urlWithSchemes(["http", "https"]),
    UPSTASH_REDIS_REST_TOKEN: optionalString,
    /** "off": this process queues automation runs but leaves working them to others (`npm run worker`). */
    AUTOMATION_WORKER: z.enum(["on", "off"]).default("on"),
    /** How long a worker may go silent before its runs are presumed interrupted and re-run elsewhere. */
    AUTOMATION_LOCK_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
    KV_KEY_PREFIX: optionalString.refine((value) => value === undefined || /^[A-Za-z0-9:_.-]{1,64}$/.test(value), {
      message: "must be 1-64 letters, digits or : _ . - (for example flowpoint-staging:)",
    }),
    ENCRYPTION_KEYS: optionalString.refine((value) => value === undefined || value.split(",").every((part) => encryptionKeySpec.test(part.trim())), {
      message: "must be comma-separated keyId:base64 pairs, each key exactly 32 bytes (newest first)",
    }),
    NEXTAUTH_SECRET: optionalString,
    NEXTAUTH_URL: urlWithSchemes(["http", "https"]),
    GITHUB_ID: optionalString,
    GITHUB_SECRET: optionalString,
    OUTBOUND_ALLOWED_HOSTS: optionalString,
    TRUSTED_PROXY: optionalString.refine((value) => value === undefined || value === "none" || /^[a-z0-9-]+$/i.test(value), {
      message: "must be none or the name of the header your proxy sets (for example x-real-ip)",
    }),
    SMTP_URL: urlWithSchemes(["smtp", "smtps"]),
    RESEND_API_KEY: optionalString,
    MAIL_FROM: optionalString,
    APP_URL: urlWithSchemes(["http", "https"]),
    /** Set to 1 by Vercel in its builds and functions (see runsOnVercel). */
    VERCEL: optionalString,
    /** production | preview on Vercel's deployments; development under `vercel dev` and in pulled env files. */
    VERCEL_ENV: optionalString,
    /**
     * `serverless`: instances are many and short-lived (route handlers only, no custom server), so the
     * embedded backends are refused. `server`: a long-lived process, even on Vercel. Unset: serverless
     * on a Vercel deployment, else server.
     */
    DEPLOY_TARGET: optionalString.pipe(z.enum(["server", "serverless"]).optional()),
    INVOCATION_URL: urlWithSchemes(["http", "https"]).refine((value) => value === undefined || hostOf(value) === null || new URL(value).origin === value.replace(/\/+$/, ""), {
      message: "must be an origin only, such as https://fn.flowpoint.example (scheme, host and optional port, no path)",
    }),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.UPSTASH_REDIS_REST_URL) !== Boolean(env.UPSTASH_REDIS_REST_TOKEN)) {
      ctx.addIssue({
        code: "custom",
        path: [env.UPSTASH_REDIS_REST_URL ? "UPSTASH_REDIS_REST_TOKEN" : "UPSTASH_REDIS_REST_URL"],
        message: "UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are set together",
      });
    }
    if (env.REDIS_URL && env.UPSTASH_REDIS_REST_URL) {
      ctx.addIssue({ code: "custom", path: ["REDIS_URL"], message: "set REDIS_URL or UPSTASH_REDIS_REST_URL, not both" });
    }
    if (Boolean(env.GITHUB_ID) !== Boolean(env.GITHUB_SECRET)) {
      ctx.addIssue({ code: "custom", path: [env.GITHUB_ID ? "GITHUB_SECRET" : "GITHUB_ID"], message: "GITHUB_ID and GITHUB_SECRET are set together" });
    }
    if (env.INVOCATION_URL) {
      // Both origins on one host would make every dashboard page answer 404 (lib/http/invocation-origin.ts).
      const dashboardUrl = env.APP_URL ?? env.NEXTAUTH_URL;
      if (dashboardUrl && hostOf(dashboardUrl) === hostOf(env.INVOCATION_URL)) {
        ctx.addIssue({ code: "custom", path: ["INVOCATION_URL"], message: "must be another host than the dashboard's (APP_URL, NEXTAUTH_URL)" });
      }
    }
    if (isServerlessHost(env)) {
      // Each instance would get its own PGlite files, memory and generated secrets, all lost when it stops.
      const where = env.DEPLOY_TARGET === "serverless" ? "with DEPLOY_TARGET=serverless" : "on Vercel (VERCEL=1)";
      if (!env.DATABASE_URL) {
        ctx.addIssue({
          code: "custom",
          path: ["DATABASE_URL"],
          message: `is required ${where}: the embedded PGlite database cannot be shared by short-lived instances, set a PostgreSQL URL`,
        });
      }
      if (!env.REDIS_URL && !env.UPSTASH_REDIS_REST_URL) {
        ctx.addIssue({
          code: "custom",
          path: ["UPSTASH_REDIS_REST_URL"],
          message: `(with UPSTASH_REDIS_REST_TOKEN) or REDIS_URL is required ${where}: in-memory rate limits, cache and invalidation would be per instance`,
        });
      }
      for (const name of ["ENCRYPTION_KEYS", "NEXTAUTH_SECRET"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `is required ${where}: a value generated per instance would not be shared` });
      }
      if (!env.NEXTAUTH_URL) {
        ctx.addIssue({
          code: "custom",
          path: ["NEXTAUTH_URL"],
          message: `is required ${where}: the dashboard's public URL, for sign-in callbacks and links in mails (the default is localhost)`,
        });
      }
    } else if (env.NODE_ENV === "production") {
      for (const name of ["ENCRYPTION_KEYS", "NEXTAUTH_SECRET"] as const) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required in production" });
      }
    }
  });

/**
 * A deployment on Vercel's infrastructure, whose edge sets the client IP headers. `vercel dev` and
 * env files pulled for development also carry VERCEL=1, with VERCEL_ENV=development: a developer's
 * machine, where the embedded defaults stay and no edge stands in front.
 */
function runsOnVercel(env: { VERCEL?: string; VERCEL_ENV?: string }): boolean {
  return env.VERCEL === "1" && env.VERCEL_ENV !== "development";
}

/**
 * True where the app runs as Next.js route handlers on many short-lived instances: a Vercel
 * deployment (unless DEPLOY_TARGET=server) or DEPLOY_TARGET=serverless.
 */
function isServerlessHost(env: { VERCEL?: string; VERCEL_ENV?: string; DEPLOY_TARGET?: "server" | "serverless" }): boolean {
  if (env.DEPLOY_TARGET) return env.DEPLOY_TARGET === "serverless";
  return runsOnVercel(env);
}

export type AppConfig = z.infer<typeof environmentSchema> & {
  /** True when no DATABASE_URL is set: PGlite, memory KV and the local mailbox. */
  embedded: boolean;
  kvBackend: "memory" | "redis" | "upstash";
  isProduction: boolean;
  /** Many short-lived instances running route handlers only (a Vercel deployment or DEPLOY_TARGET=serverless). */
  serverless: boolean;
  /** The platform whose edge sets a client IP header nobody else can forge (lib/http/client-ip.ts). */
  platform: "vercel" | null;
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const result = environmentSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join("; ")}`);
  }
  const parsed = result.data;
  return {
    ...parsed,
    embedded: !parsed.DATABASE_URL,
    kvBackend: parsed.REDIS_URL ? "redis" : parsed.UPSTASH_REDIS_REST_URL ? "upstash" : "memory",
    isProduction: parsed.NODE_ENV === "production",
    serverless: isServerlessHost(parsed),
    platform: runsOnVercel(parsed) ? "vercel" : null,
  };
}

let cached: AppConfig | undefined;

export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Tests change the environment between cases. */
export function resetConfigForTests(): void {
  cached = undefined;
}
