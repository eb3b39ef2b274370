import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The platform database holds configuration only (docs/DESIGN.md section 2). Records, uploads, end users
 * and execution logs live in the customer's database.
 */

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash"),
    githubId: text("github_id"),
    // Stamped into every session token at sign-in; raising it ends every existing session of the user.
    sessionVersion: integer("session_version").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`), uniqueIndex("users_github_id_unique").on(t.githubId)],
);

export const workspaces = pgTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const WORKSPACE_ROLES = ["admin", "member"] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export const memberships = pgTable(
  "memberships",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: WORKSPACE_ROLES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: WORKSPACE_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invitations_token_hash_unique").on(t.tokenHash), index("invitations_email_idx").on(sql`lower(${t.email})`)],
);

export const DATABASE_KINDS = ["local", "postgres", "mongodb"] as const;
export type DatabaseKind = (typeof DATABASE_KINDS)[number];

export const projects = pgTable(
  "projects",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    databaseKind: text("database_kind", { enum: DATABASE_KINDS }).notNull().default("local"),
    /** AES-256-GCM envelope (lib/crypto), bound to this project's id. Null for the local database. */
    databaseUrlEncrypted: text("database_url_encrypted"),
    /** The URL with its password masked, for display. */
    databaseUrlHint: text("database_url_hint"),
    mailSettingsEncrypted: text("mail_settings_encrypted"),
    logRetentionDays: integer("log_retention_days").notNull().default(30),
    /** Serve GET /api/projects/:id/openapi.json without credentials (rate-limited per IP). */
    openapiPublic: boolean("openapi_public").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("projects_workspace_slug_unique").on(t.workspaceId, t.slug)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the full key, hex. Looked up by hash, compared in constant time. */
    keyHash: text("key_hash").notNull(),
    /** The visible start of the key (product prefix and a few characters). */
    prefix: text("prefix").notNull(),
    lastFour: text("last_four").notNull(),
    permissions: jsonb("permissions").$type<string[]>().notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_key_hash_unique").on(t.keyHash), index("api_keys_project_idx").on(t.projectId)],
);

export const schemaDefinitions = pgTable(
  "schema_definitions",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["collection", "auth", "component"] }).notNull(),
    fields: jsonb("fields").$type<unknown[]>().notNull(),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("schema_definitions_project_name_unique").on(t.projectId, t.name)],
);

export const endpoints = pgTable(
  "endpoints",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    method: text("method", { enum: ["GET", "POST", "PUT", "PATCH", "DELETE"] }).notNull(),
    slug: text("slug").notNull(),
    /** auth, authSchema, allowedOrigins, group, cacheSeconds, steps, response (docs/DESIGN.md section 5). */
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Bumped on every change; part of cache keys so that an edit orphans old entries everywhere. */
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("endpoints_project_method_slug_unique").on(t.projectId, t.method, t.slug)],
);

export const automations = pgTable(
  "automations",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    trigger: jsonb("trigger").$type<Record<string, unknown>>().notNull(),
    steps: jsonb("steps").$type<unknown[]>().notNull(),
    retry: jsonb("retry").$type<{ attempts: number; backoffSeconds: number }>().notNull().default({ attempts: 0, backoffSeconds: 30 }),
    /** The form trigger's slug (unique per project), null for other triggers: the intake route's key. */
    form: text("form"),
    enabled: boolean("enabled").notNull().default(true),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("automations_project_idx").on(t.projectId), uniqueIndex("automations_project_form_unique").on(t.projectId, t.form)],
);

export const emailTemplates = pgTable(
  "email_templates",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull().default(""),
    text: text("text").notNull().default(""),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("email_templates_project_name_unique").on(t.projectId, t.name)],
);

/**
 * Values that flows send to third-party APIs (`{{secrets.NAME}}` in HTTP, webhook and email steps).
 * Only the AES-256-GCM envelope is stored, bound to the project and the secret's name
 * (lib/secrets/secret-envelope-scope.ts); the hint is a masked preview for display.
 */
export const projectSecrets = pgTable(
  "project_secrets",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    valueEncrypted: text("value_encrypted").notNull(),
    hint: text("hint").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("project_secrets_project_name_unique").on(t.projectId, t.name)],
);

/** The development mailbox: mail the platform "sent" with no real transport configured. */
export const localMailbox = pgTable(
  "local_mailbox",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id"),
    from: text("from_address").notNull(),
    to: jsonb("to_addresses").$type<string[]>().notNull(),
    subject: text("subject").notNull(),
    html: text("html"),
    text: text("text"),
    createdAt: createdAt(),
  },
  (t) => [index("local_mailbox_created_idx").on(t.createdAt)],
);

/*
 * Endpoint call counters (lib/endpoint-analytics): per endpoint and minute, and per hour. Every
 * instance adds its counts to the same rows, so a row holds all instances' calls. `latency_buckets`
 * is the latency histogram (lib/endpoint-analytics/latency-histogram.ts), one count per bucket.
 * Minute rows are kept 48 hours, hour rows as long as the project keeps its logs.
 */
const endpointStatsCounts = () => ({
  endpointId: text("endpoint_id")
    .notNull()
    .references(() => endpoints.id, { onDelete: "cascade" }),
  projectId: text("project_id").notNull(),
  calls: integer("calls").notNull().default(0),
  status2xx: integer("status_2xx").notNull().default(0),
  status3xx: integer("status_3xx").notNull().default(0),
  status4xx: integer("status_4xx").notNull().default(0),
  status5xx: integer("status_5xx").notNull().default(0),
  rateLimited: integer("rate_limited").notNull().default(0),
  cacheHits: integer("cache_hits").notNull().default(0),
  latencyBuckets: integer("latency_buckets").array().notNull(),
});

export const endpointStatsMinute = pgTable(
  "endpoint_stats_minute",
  { ...endpointStatsCounts(), minute: timestamp("minute", { withTimezone: true, mode: "date" }).notNull() },
  (t) => [primaryKey({ columns: [t.endpointId, t.minute] }), index("endpoint_stats_minute_minute_idx").on(t.minute)],
);

export const endpointStatsHour = pgTable("endpoint_stats_hour", { ...endpointStatsCounts(), hour: timestamp("hour", { withTimezone: true, mode: "date" }).notNull() }, (t) => [
  primaryKey({ columns: [t.endpointId, t.hour] }),
  index("endpoint_stats_hour_project_hour_idx").on(t.projectId, t.hour),
]);
