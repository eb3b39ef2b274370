import { AppError, isAppError } from "@/lib/errors";
import type { OperationOptions } from "./operation-options";

/**
 * One database, one project. A customer database holds the records, end users and execution logs
 * of exactly one project: collections carry no project id, so two projects on one database would
 * read and write each other's data. Attaching a project writes a marker naming it — the `_flowpoint`
 * table (PostgreSQL, PGlite: `flowpoint_records._flowpoint`) or collection (MongoDB), one row or
 * document with the id "owner" — and a database whose marker names another project is refused.
 */
export const OWNER_COLLECTION = "_flowpoint";
export const OWNER_ID = "owner";

/** What the marker says. */
export interface DatabaseOwner {
  projectId: string;
  workspaceId?: string;
  /** ISO 8601: when this project attached the database (or took it over). */
  attachedAt: string;
}

export interface OwnershipClaim {
  projectId: string;
  workspaceId?: string;
}

export interface ClaimOptions extends OperationOptions {
  /**
   * Rewrites a marker that names another project (the explicit override of an owner who means to
   * move the database to this project; the other project then stops using it).
   */
  takeOver?: boolean;
}

const OWNER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function checkOwnershipClaim(claim: OwnershipClaim): void {
  const issues = [];
  if (typeof claim?.projectId !== "string" || !OWNER_ID_PATTERN.test(claim.projectId)) issues.push({ path: "projectId", message: "must be a project id" });
  if (claim?.workspaceId !== undefined && (typeof claim.workspaceId !== "string" || !OWNER_ID_PATTERN.test(claim.workspaceId))) {
    issues.push({ path: "workspaceId", message: "must be a workspace id" });
  }
  if (issues.length) throw new AppError("validation_failed", "invalid ownership claim", { issues });
}

/**
 * The refusal. It never names the other project: its id belongs to another tenant.
 */
const DATABASE_TAKEN = "this database is already attached to another Flowpoint project";

export function databaseTakenError(cause?: unknown): AppError {
  return new AppError("conflict", DATABASE_TAKEN, { cause });
}

export function isDatabaseTakenError(error: unknown): boolean {
  return isAppError(error) && error.code === "conflict" && error.message === DATABASE_TAKEN;
}

function iso(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return undefined;
}

/** Reads a marker row or document; anything unreadable counts as a marker of an unknown project. */
export function toDatabaseOwner(value: { projectId?: unknown; workspaceId?: unknown; attachedAt?: unknown } | null | undefined): DatabaseOwner | null {
  if (!value) return null;
  const owner: DatabaseOwner = {
    projectId: typeof value.projectId === "string" ? value.projectId : "",
    attachedAt: iso(value.attachedAt) ?? new Date(0).toISOString(),
  };
  if (typeof value.workspaceId === "string") owner.workspaceId = value.workspaceId;
  return owner;
}

/** The claim's answer: the marker names the claimant, or the database belongs to someone else. */
export function settleClaim(owner: DatabaseOwner | null, claim: OwnershipClaim): DatabaseOwner {
  if (!owner) throw new AppError("internal", "the database owner marker could not be written");
  if (owner.projectId !== claim.projectId) throw databaseTakenError();
  return owner;
}
