import { AppError } from "@/lib/errors";
import { isValidRecordId } from "@/lib/records/record-names";
import type { RecordStore } from "@/lib/records/record-store";
import { FILES_COLLECTION, toStoredFile, type StoredFile } from "./stored-file";

export interface GetFileOptions {
  store: RecordStore;
  id: string;
  signal?: AbortSignal;
}

/** A stored file's description by id, or AppError("not_found") (also for ids that cannot exist). */
export async function getFileOrThrow(options: GetFileOptions): Promise<StoredFile> {
  const notFound = new AppError("not_found", "file not found");
  if (!isValidRecordId(options.id)) throw notFound;
  const [record] = await options.store.findByIds(FILES_COLLECTION, [options.id], options.signal ? { signal: options.signal } : {});
  if (!record) throw notFound;
  return toStoredFile(record);
}
