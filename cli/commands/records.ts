import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { parseArgs } from "node:util";
import { getProjectOrThrow } from "@/lib/projects/get-project-or-throw";
import { getProjectRecordStore } from "@/lib/projects/get-project-record-store";
import { closeAllRecordStores } from "@/lib/records/get-record-store";
import { IMPORT_LIMITS, importRecords, type ImportProgress } from "@/lib/records-service/import-records";
import { listSchemas } from "@/lib/schemas/list-schemas";
import { CliError, requireOption } from "../cli-error";

/** Exit code of an import that finished with some lines failed (the JSON line lists them). */
export const SOME_LINES_FAILED = 3;

export const recordsHelp = `Usage:
  flowpoint records import --project ID --schema NAME FILE
      imports FILE ("-" reads stdin) into the schema's records: NDJSON, one JSON object per line
      (blank lines skipped), each checked as a single create through the records API is (types,
      required, enums, unique values, related records and file ids must exist, no system fields).
      Prints progress on stderr (lines read, imported, failed, lines/s) and at the end one JSON line
      on stdout: {"imported","failedCount","failed":[{"line","issues":[{"path","message"}]}]}, the
      first ${IMPORT_LIMITS.listedFailures} failed lines.

  At most ${IMPORT_LIMITS.maxLines} lines per import and ${IMPORT_LIMITS.maxLineBytes} bytes per line. Records are
  written ${IMPORT_LIMITS.batchSize} at a time; an import that stops part way keeps what it wrote. Imported
  records trigger no automations. The CLI writes to the project's database directly: with the
  built-in database, stop the app first.

Exit codes: 0 every line imported; ${SOME_LINES_FAILED} the import finished but some lines failed (see the
JSON line); 2 bad options, or the import stopped (the message on stderr says how far it got).`;

export async function runRecords(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== "import") throw new CliError(`unknown records action ${action ? `"${action}"` : "(none)"}; use import`);
  const { values, positionals } = parseArgs({
    args: rest,
    options: { project: { type: "string" }, schema: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  const projectId = requireOption(values, "project");
  const schemaName = requireOption(values, "schema");
  if (positionals.length !== 1) throw new CliError("name one FILE to import (or - for stdin)");
  const file = positionals[0]!;
  if (file !== "-") {
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new CliError(`cannot read ${file}: not a file`);
  }

  const project = await getProjectOrThrow({ projectId });
  const schemas = await listSchemas({ projectId });
  const schema = schemas.find((candidate) => candidate.name === schemaName);
  if (!schema) throw new CliError(`no schema named "${schemaName}" in this project`);
  try {
    const store = await getProjectRecordStore({ project });
    const progress = progressLine(process.stderr);
    const source = file === "-" ? process.stdin : createReadStream(file, { highWaterMark: 256 * 1024 });
    let result;
    try {
      result = await importRecords({ store, schema, schemas, source, onProgress: progress.update });
    } finally {
      progress.finish();
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result.failedCount > 0 ? SOME_LINES_FAILED : 0;
  } finally {
    await closeAllRecordStores();
  }
}

/**
 * The progress line on stderr: rewritten in place (\r) on a terminal, at most ten times a second;
 * otherwise (a log file, a pipe) one line about every second.
 */
function progressLine(stream: NodeJS.WriteStream): { update(progress: ImportProgress): void; finish(): void } {
  const started = performance.now();
  const interactive = stream.isTTY === true;
  let last: ImportProgress | null = null;
  let lastShown = false;
  let shownAt = -Infinity;
  const text = (progress: ImportProgress) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(progress.linesRead / seconds) : 0;
    return `records import: ${progress.linesRead} lines read, ${progress.imported} imported, ${progress.failedCount} failed, ${rate} lines/s`;
  };
  const show = (progress: ImportProgress) => {
    shownAt = performance.now();
    lastShown = true;
    stream.write(interactive ? `\r${text(progress)}\x1b[K` : `${text(progress)}\n`);
  };
  return {
    update(progress) {
      last = progress;
      lastShown = false;
      if (performance.now() - shownAt >= (interactive ? 100 : 1000)) show(progress);
    },
    finish() {
      if (last && !lastShown) show(last);
      if (interactive && last) stream.write("\n");
    },
  };
}
