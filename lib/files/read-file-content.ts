import { AppError } from "@/lib/errors";
import type { RecordStore } from "@/lib/records/record-store";
import { chunkId, FILE_CHUNKS_COLLECTION, type StoredFile } from "./stored-file";

async function readChunk(store: RecordStore, file: StoredFile, index: number): Promise<Uint8Array> {
  const [chunk] = await store.findByIds(FILE_CHUNKS_COLLECTION, [chunkId(file.id, index)]);
  if (!chunk || typeof chunk.data !== "string") throw new AppError("internal", `chunk ${index} of file ${file.id} is missing`);
  return new Uint8Array(Buffer.from(chunk.data, "base64"));
}

/**
 * A file's bytes as a stream that reads one chunk from the store at a time. The first chunk is
 * read before answering, so a file whose data is missing fails before any response is sent.
 */
export async function readFileContent(options: { store: RecordStore; file: StoredFile }): Promise<ReadableStream<Uint8Array>> {
  const { store, file } = options;
  if (file.chunks === 0) return new ReadableStream({ start: (controller) => controller.close() });
  const first = await readChunk(store, file, 0);
  let next = 1;
  let pending: Uint8Array | null = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending) {
        controller.enqueue(pending);
        pending = null;
      } else if (next < file.chunks) {
        controller.enqueue(await readChunk(store, file, next++));
      }
      if (!pending && next >= file.chunks) controller.close();
    },
  });
}
