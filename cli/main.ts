/**
 * The command line for self-hosters and scripts: `npm run cli -- <command>` or the `flowpoint` bin.
 * It talks to the same platform database as the app (DATABASE_URL, or the embedded one under
 * DATA_DIR — stop `npm run dev` first when using the embedded database: PGlite allows one process).
 * Errors: one line on stderr, non-zero exit.
 */
import { AppError } from "@/lib/errors";
import { ConfigError } from "@/lib/config";
import { closeKv } from "@/lib/kv/get-kv";
import { closePlatformDb } from "@/lib/platform-db/client";
import { CliError } from "./cli-error";
import { runSetup, setupHelp } from "./commands/setup";
import { apiKeysHelp, runApiKeys } from "./commands/api-keys";
import { recordsHelp, runRecords } from "./commands/records";

const help = `Flowpoint command line

Usage: flowpoint <command> [options]

Commands:
  setup      create or reuse the owner, a workspace and a project; prints {"userId","workspaceId","projectId"}
  api-keys   create, list or revoke a project's API keys
  records    import records from an NDJSON file (one JSON object per line)

Run "flowpoint <command> --help" for a command's options.`;

function errorLine(error: unknown): string {
  if (error instanceof AppError) {
    const issues = error.issues?.map((issue) => `${issue.path || "input"} ${issue.message}`).join("; ");
    return issues ? `${error.message}: ${issues}` : error.message;
  }
  if (error instanceof CliError || error instanceof ConfigError) return error.message;
  // parseArgs reports unknown or malformed options with a TypeError carrying an ERR_PARSE_ARGS_* code.
  if (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) return error.message;
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const wantsHelp = args.includes("--help") || args.includes("-h");
  if (!command || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(`${help}\n`);
    return command ? 0 : 2;
  }
  try {
    switch (command) {
      case "setup":
        if (wantsHelp) process.stdout.write(`${setupHelp}\n`);
        else await runSetup(args);
        return 0;
      case "api-keys":
        if (wantsHelp) process.stdout.write(`${apiKeysHelp}\n`);
        else await runApiKeys(args);
        return 0;
      case "records":
        if (wantsHelp) {
          process.stdout.write(`${recordsHelp}\n`);
          return 0;
        }
        return await runRecords(args);
      default:
        throw new CliError(`unknown command "${command}"; run flowpoint --help`);
    }
  } catch (error) {
    process.stderr.write(`error: ${errorLine(error).replace(/\s*\n\s*/g, " ")}\n`);
    return error instanceof CliError || error instanceof AppError || error instanceof ConfigError ? 2 : 1;
  } finally {
    // Commands that change a project bump its generation in the key-value store: its connection
    // must not keep the process alive.
    await Promise.allSettled([closePlatformDb(), closeKv()]);
  }
}

process.exitCode = await main(process.argv.slice(2));
