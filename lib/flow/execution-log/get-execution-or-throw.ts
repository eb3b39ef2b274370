import { AppError } from "@/lib/errors";
import type { RecordStore } from "@/lib/records/record-store";
import { EXECUTIONS_COLLECTION, type ExecutionLogEntry } from "./execution-log-entry";
import { presentExecution } from "./list-executions";

export async function getExecutionOrThrow(options: { store: RecordStore; executionId: string }): Promise<ExecutionLogEntry> {
  if (!/^exe_[0-9a-z]{26}$/.test(options.executionId)) throw new AppError("not_found", "execution not found");
  const [entry] = await options.store.findByIds(EXECUTIONS_COLLECTION, [options.executionId]);
  if (!entry) throw new AppError("not_found", "execution not found");
  return presentExecution(entry);
}
