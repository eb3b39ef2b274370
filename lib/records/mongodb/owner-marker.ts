import { checkOwnershipClaim, OWNER_COLLECTION, OWNER_ID, settleClaim, toDatabaseOwner, type DatabaseOwner, type OwnershipClaim } from "../database-owner";

/** The driver calls the marker needs: a structural subset of the driver's Collection, so tests can record them. */
export interface OwnerMarkerCollection {
  findOne(filter: { _id: string }, options: { maxTimeMS: number }): Promise<Record<string, unknown> | null>;
  updateOne(filter: { _id: string }, update: { $setOnInsert: Record<string, unknown> }, options: { upsert: true; maxTimeMS: number }): Promise<unknown>;
  replaceOne(filter: { _id: string; projectId: { $ne: string } }, replacement: Record<string, unknown>, options: { upsert: true; maxTimeMS: number }): Promise<unknown>;
}

const DUPLICATE_KEY = new Set<unknown>([11000, 11001]);

function isDuplicateKey(error: unknown): boolean {
  return error !== null && typeof error === "object" && DUPLICATE_KEY.has((error as { code?: unknown }).code);
}

function markerDocument(claim: OwnershipClaim, attachedAt: Date): Record<string, unknown> {
  const document: Record<string, unknown> = { projectId: claim.projectId };
  if (claim.workspaceId !== undefined) document.workspaceId = claim.workspaceId;
  document.attachedAt = attachedAt;
  return document;
}

/** The `_flowpoint` document `{_id: "owner", projectId, workspaceId?, attachedAt}`, or null. */
export async function readMongoOwner(collection: OwnerMarkerCollection, remainingMs: () => number): Promise<DatabaseOwner | null> {
  return toDatabaseOwner(await collection.findOne({ _id: OWNER_ID }, { maxTimeMS: remainingMs() }));
}

/**
 * Claims the database: an upsert that only sets fields on insert (`$setOnInsert`), so an existing
 * marker is never changed, then a read-back. Two projects upserting the one `_id` at once: the
 * server lets exactly one insert; the other matches that document or gets a duplicate key error,
 * and both read back the winner. `takeOver` replaces a marker that names another project (one
 * naming this project is left alone, attachedAt included).
 */
export async function claimMongoOwnership(
  collection: OwnerMarkerCollection,
  claim: OwnershipClaim,
  options: { takeOver?: boolean; remainingMs: () => number; now?: Date },
): Promise<DatabaseOwner> {
  checkOwnershipClaim(claim);
  const document = markerDocument(claim, options.now ?? new Date());
  try {
    if (options.takeOver) {
      await collection.replaceOne({ _id: OWNER_ID, projectId: { $ne: claim.projectId } }, document, { upsert: true, maxTimeMS: options.remainingMs() });
    } else {
      await collection.updateOne({ _id: OWNER_ID }, { $setOnInsert: document }, { upsert: true, maxTimeMS: options.remainingMs() });
    }
  } catch (error) {
    // Lost an insert race, or (takeOver) the marker already names this project so the filter
    // missed and the upsert collided with it: the read-back tells which.
    if (!isDuplicateKey(error)) throw error;
  }
  return settleClaim(await readMongoOwner(collection, options.remainingMs), claim);
}

/** A command on the marker collection (command monitoring leaves these out of metrics.queries). */
export function isOwnerMarkerCommand(event: { commandName: string; command?: Record<string, unknown> }): boolean {
  return event.command?.[event.commandName] === OWNER_COLLECTION;
}
