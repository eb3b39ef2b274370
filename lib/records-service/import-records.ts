import { AppError, isAppError, type ErrorIssue } from "@/lib/errors";
import { findFileReferenceIssues } from "@/lib/files/find-file-reference-issues";
import { newId } from "@/lib/ids";
import type { StoredRecord } from "@/lib/records/record-store";
import { uniqueFieldNames } from "@/lib/schemas/schema-definition";
import { findMissingRelations } from "./find-missing-relations";
import { assertSchemaHasRecords, operationOptions, type RecordServiceOptions } from "./record-service-options";
import { rethrowUniqueViolation } from "./rethrow-unique-violation";
import { splitNdjsonLines, type NdjsonLine } from "./split-ndjson-lines";
import { validateRecordInput } from "./validate-record";

export interface ImportLimits {
  /** Lines one import reads, blank ones included; past it the import stops with 413. */
  maxLines: number;
  /** Bytes of one line, its line break excluded (the records API's body limit for one record); a longer line fails. */
  maxLineBytes: number;
  /** Records written per statement (at most the record store's insertMany maximum, 1,000). */
  batchSize: number;
  /** Failures listed in the answer, lowest line numbers first; all of them are counted. */
  listedFailures: number;
}

/** The caps of one import (docs/DESIGN.md "Records at scale"; docs/ARCHITECTURE.md). */
export const IMPORT_LIMITS: Readonly<ImportLimits> = Object.freeze({ maxLines: 1_000_000, maxLineBytes: 100 * 1024, batchSize: 1000, listedFailures: 100 });

/** A line that was not imported, and why (the issues a single create would answer with 422 or 409). */
export interface ImportFailure {
  /** 1-based, counting every line of the input. */
  line: number;
  issues: ErrorIssue[];
}

export interface ImportProgress {
  linesRead: number;
  imported: number;
  failedCount: number;
}

export interface ImportResult {
  imported: number;
  failedCount: number;
  /** The first `listedFailures` failures by line number. */
  failed: ImportFailure[];
}

export interface ImportRecordsOptions extends RecordServiceOptions {
  /** NDJSON bytes as they arrive (a request body, a file): one JSON object per line, blank lines skipped. */
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
  /** Called after each written batch (lines read so far, records imported, lines failed). */
  onProgress?: (progress: ImportProgress) => void;
  /** Smaller caps (tests). */
  limits?: Partial<ImportLimits>;
}

/** A line that passed validation, on its way to the database with the id it will have. */
interface ImportItem {
  line: number;
  id: string;
  values: Record<string, unknown>;
}

/** Imports of at least this many records refresh the collection's planner statistics when they end. */
const STATISTICS_REFRESH_THRESHOLD = 1000;

const TAKEN_MESSAGE = "must be unique: another record already has this value";

/** What an import has done so far. */
class ImportTally {
  imported = 0;
  failedCount = 0;
  private failures: ImportFailure[] = [];

  constructor(private readonly listed: number) {}

  fail(line: number, issues: ErrorIssue[]): void {
    this.failedCount += 1;
    this.failures.push({ line, issues });
    // Failures of a batch are found after the next batch's lines are read: keep the lowest line numbers.
    if (this.failures.length > 2 * this.listed) this.trim();
  }

  listedFailures(): ImportFailure[] {
    this.trim();
    return this.failures;
  }

  private trim(): void {
    this.failures = this.failures.sort((a, b) => a.line - b.line).slice(0, this.listed);
  }
}

/** The key under which the database's unique index compares a value (text, numbers and booleans only). */
function uniqueKey(value: unknown): string | null {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return `${typeof value}:${String(value)}`;
  return null;
}

/**
 * Imports records from NDJSON: every line gets exactly the checks of a single create
 * (validateRecordInput: types, required, enums, no system fields; related records and file ids must
 * exist; unique values must be free, among the import's own lines too), and the lines that pass are
 * written in batches, one insertMany statement each, while the next batch is read. A line that
 * fails (not JSON, not an object, invalid, a taken unique value) is reported with its line number
 * and the rest goes on. Checks against the database are per batch: one findByIds per related
 * schema and one for files, and the unique values are left to the database's unique indexes (a
 * batch the index refuses is looked into: the taken values are found with one query per unique
 * field, those lines fail and the rest is written; if that is refused again, because another writer
 * is storing the same values right now, the batch is written one record at a time).
 *
 * Imports write with no record events: automations' record triggers do not fire for imported
 * records (a bulk load would flood the queue). An import is not atomic: the batches written before
 * a fatal error (database unavailable, timeout, the caps) stay, and the error says how far it got.
 */
export async function importRecords(options: ImportRecordsOptions): Promise<ImportResult> {
  const { schema, schemas } = options;
  assertSchemaHasRecords(schema);
  const limits = { ...IMPORT_LIMITS, ...options.limits };
  const tally = new ImportTally(limits.listedFailures);
  const writer = new BatchWriter(options, tally);
  let linesRead = 0;
  let batch: ImportItem[] = [];
  // One batch is written while the next one is read and validated; writes stay one at a time, in order.
  let writing: Promise<void> = Promise.resolve();
  const send = async (items: ImportItem[]): Promise<void> => {
    await writing;
    const readSoFar = linesRead;
    writing = writer.write(items).then(() => options.onProgress?.({ linesRead: readSoFar, imported: tally.imported, failedCount: tally.failedCount }));
    // Awaited by the next send or at the end; until then a failure must not count as unhandled.
    writing.catch(() => undefined);
  };

  const readLine = (line: NdjsonLine): ImportItem | null => {
    if ("problem" in line) {
      tally.fail(line.number, [{ path: "", message: line.problem }]);
      return null;
    }
    if (line.text.trim() === "") return null;
    let input: unknown;
    try {
      input = JSON.parse(line.text);
    } catch {
      tally.fail(line.number, [{ path: "", message: "the line is not valid JSON" }]);
      return null;
    }
    try {
      // The same validation as a single create, including "must be a JSON object" and the system fields.
      const values = validateRecordInput({ schema, components: schemas, input, mode: "create" });
      return { line: line.number, id: "", values };
    } catch (error) {
      if (!isAppError(error) || error.code !== "validation_failed") throw error;
      tally.fail(line.number, error.issues ?? [{ path: "", message: error.message }]);
      return null;
    }
  };

  try {
    for await (const line of splitNdjsonLines(options.source, { maxLineBytes: limits.maxLineBytes })) {
      if (line.number > limits.maxLines) {
        // The lines within the cap are imported; the error says how far it got.
        if (batch.length > 0) await send(batch);
        batch = [];
        await writing;
        throw new AppError(
          "payload_too_large",
          `an import reads at most ${limits.maxLines} lines: it stopped before line ${line.number} after importing ${tally.imported} records (${tally.failedCount} lines failed); import the rest separately`,
        );
      }
      linesRead = line.number;
      const item = readLine(line);
      if (!item) continue;
      batch.push(item);
      if (batch.length >= limits.batchSize) {
        await send(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await send(batch);
    await writing;
  } catch (error) {
    // Nothing is left running behind the error (a closed request, a fatal write).
    await writing.catch(() => undefined);
    throw error;
  }
  // Queries right after a large import plan with its data, not with what the collection held before.
  if (tally.imported >= STATISTICS_REFRESH_THRESHOLD) await options.store.refreshStatistics(schema.name, operationOptions(options.signal));
  options.onProgress?.({ linesRead, imported: tally.imported, failedCount: tally.failedCount });
  return { imported: tally.imported, failedCount: tally.failedCount, failed: tally.listedFailures() };
}

/** Checks a batch against the database and writes what passes. */
class BatchWriter {
  private readonly uniqueFields: string[];

  constructor(
    private readonly options: ImportRecordsOptions,
    private readonly tally: ImportTally,
  ) {
    this.uniqueFields = uniqueFieldNames(options.schema);
  }

  async write(items: ImportItem[]): Promise<void> {
    try {
      const checked = await this.dropMissingReferences(items);
      await this.insert(this.dropRepeatedValues(checked));
    } catch (error) {
      throw this.stopped(error, items);
    }
  }

  private get operation() {
    return operationOptions(this.options.signal);
  }

  /** Related records and files must exist: one query per related schema, one for files, for the whole batch. */
  private async dropMissingReferences(items: ImportItem[]): Promise<ImportItem[]> {
    const { store, schema, schemas, signal } = this.options;
    const records = items.map((item) => item.values);
    const [relationIssues, fileIssues] = await Promise.all([
      findMissingRelations({ store, schema, schemas, records, signal }),
      findFileReferenceIssues({ store, schema, records, components: schemas, signal }),
    ]);
    return items.filter((item, index) => {
      const issues = [...(relationIssues[index] ?? []), ...(fileIssues[index] ?? [])];
      if (issues.length > 0) this.tally.fail(item.line, issues);
      return issues.length === 0;
    });
  }

  /**
   * A unique value given twice in one batch: the first line keeps it. (Across batches the earlier
   * line is already stored, so the database's index finds the later one.)
   */
  private dropRepeatedValues(items: ImportItem[]): ImportItem[] {
    if (this.uniqueFields.length === 0) return items;
    const seen = new Map(this.uniqueFields.map((field) => [field, new Map<string, number>()]));
    return items.filter((item) => {
      const issues: ErrorIssue[] = [];
      for (const field of this.uniqueFields) {
        const key = uniqueKey(item.values[field]);
        const earlier = key === null ? undefined : seen.get(field)!.get(key);
        if (earlier !== undefined) issues.push({ path: field, message: `must be unique: line ${earlier} of this import has the same value` });
      }
      if (issues.length > 0) {
        this.tally.fail(item.line, issues);
        return false;
      }
      for (const field of this.uniqueFields) {
        const key = uniqueKey(item.values[field]);
        if (key !== null) seen.get(field)!.set(key, item.line);
      }
      return true;
    });
  }

  private async insert(items: ImportItem[]): Promise<void> {
    const { store, schema } = this.options;
    // Ids are given here, in line order: newId() counts up, so the default order (createdAt, id) is the file's.
    for (const item of items) item.id ||= newId("record");
    let remaining = items;
    let lookedForTaken = false;
    while (remaining.length > 0) {
      try {
        await store.insertMany(
          schema.name,
          remaining.map((item) => ({ id: item.id, ...item.values })),
          this.operation,
        );
        this.tally.imported += remaining.length;
        return;
      } catch (error) {
        if (isAppError(error) && error.code === "validation_failed") {
          remaining = this.dropRefusedDocuments(remaining, error);
          continue;
        }
        if (!isAppError(error) || error.code !== "unique_violation") throw error;
      }
      // PostgreSQL and PGlite stored none of the batch; MongoDB stored those before the refused one.
      const stored = new Set(
        (
          await store.findByIds(
            schema.name,
            remaining.map((item) => item.id),
            this.operation,
          )
        ).map((record) => record.id),
      );
      this.tally.imported += stored.size;
      remaining = remaining.filter((item) => !stored.has(item.id));
      if (!lookedForTaken) {
        lookedForTaken = true;
        remaining = await this.dropTakenValues(remaining);
        continue;
      }
      // Refused again: another writer is storing the same values right now. One at a time, exactly.
      await this.insertOneByOne(remaining);
      return;
    }
  }

  /** Lines whose values the store refuses (text with unpaired surrogates...): its issues start with the document's index. */
  private dropRefusedDocuments(items: ImportItem[], error: AppError): ImportItem[] {
    const issuesByIndex = new Map<number, ErrorIssue[]>();
    for (const issue of error.issues ?? []) {
      const match = /^(\d+)(?:\.(.*))?$/.exec(issue.path);
      const index = match ? Number(match[1]) : NaN;
      if (!match || !items[index]) throw error;
      const issues = issuesByIndex.get(index) ?? [];
      issues.push({ path: match[2] ?? "", message: issue.message });
      issuesByIndex.set(index, issues);
    }
    if (issuesByIndex.size === 0) throw error;
    for (const [index, issues] of issuesByIndex) this.tally.fail(items[index]!.line, issues);
    return items.filter((_, index) => !issuesByIndex.has(index));
  }

  /** Lines whose unique values records already hold: one query per unique field. */
  private async dropTakenValues(items: ImportItem[]): Promise<ImportItem[]> {
    const { store, schema } = this.options;
    const issuesByLine = new Map<number, ErrorIssue[]>();
    for (const field of this.uniqueFields) {
      const values = [...new Map(items.map((item) => [uniqueKey(item.values[field]), item.values[field]] as const)).entries()]
        .filter(([key]) => key !== null)
        .map(([, value]) => value as string | number | boolean);
      if (values.length === 0) continue;
      const holders: StoredRecord[] = await store.find(schema.name, { where: [{ field, op: "in", value: values }], ...this.operation });
      // A MongoDB unique index also constrains each element of an array value.
      const taken = new Set(holders.flatMap((record) => (Array.isArray(record[field]) ? (record[field] as unknown[]) : [record[field]])).map(uniqueKey));
      for (const item of items) {
        const key = uniqueKey(item.values[field]);
        if (key === null || !taken.has(key)) continue;
        const issues = issuesByLine.get(item.line) ?? [];
        issues.push({ path: field, message: TAKEN_MESSAGE });
        issuesByLine.set(item.line, issues);
      }
    }
    for (const [line, issues] of issuesByLine) this.tally.fail(line, issues);
    return items.filter((item) => !issuesByLine.has(item.line));
  }

  private async insertOneByOne(items: ImportItem[]): Promise<void> {
    const { store, schema } = this.options;
    for (const item of items) {
      try {
        try {
          await store.insert(schema.name, { id: item.id, ...item.values }, this.operation);
        } catch (error) {
          rethrowUniqueViolation(error, schema.name, item.values);
        }
        this.tally.imported += 1;
      } catch (error) {
        if (!isAppError(error) || (error.code !== "unique_violation" && error.code !== "validation_failed")) throw error;
        this.tally.fail(item.line, error.issues ?? [{ path: error.field ?? "", message: TAKEN_MESSAGE }]);
      }
    }
  }

  /** A fatal error says how far the import got; internal errors stay generic (answered as 500). */
  private stopped(error: unknown, items: ImportItem[]): unknown {
    if (!isAppError(error) || !error.isPublic) return error;
    const first = items[0]?.line;
    const last = items[items.length - 1]?.line;
    const where = first === undefined ? "" : ` at lines ${first}-${last}, which may or may not be stored`;
    return new AppError(error.code, `${error.message} (the import stopped${where}; ${this.tally.imported} records were imported before, ${this.tally.failedCount} lines failed)`, {
      cause: error,
      field: error.field,
      headers: error.headers,
    });
  }
}
