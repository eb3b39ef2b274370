import type { BenchOptions } from "./options";
import type { ManagedProcess } from "./processes";
import type { BenchReport } from "./report";

/** A run's own stores: the databases and the Redis key prefix the clean-up removes. */
export interface BenchStores {
  platformDatabase: string;
  customerDatabase: string;
  /** `--kv-prefix`, or the mode's stem with the run's stamp. */
  keyPrefix: string;
}

/** What bench/run.ts hands a benchmark mode (--automations, --records): its set-up and the clean-up it owns. */
export interface BenchModeContext {
  options: BenchOptions;
  log: (line: string) => void;
  /** Processes, databases, Redis patterns and closers the caller cleans up, whatever happens. */
  cleanup: { databases: string[]; redisPatterns: string[]; processes: ManagedProcess[]; closers: Array<() => Promise<void>> };
  workDir: string;
  pinned: boolean;
  serverCore: number | null;
  machine: Omit<BenchReport["machine"], "loadAverageAtEnd">;
  code: BenchReport["code"];
  stamp: string;
  appEnvironment: (port: number, platformDatabase: string, dataDir: string) => NodeJS.ProcessEnv;
  freePort: () => Promise<number>;
  createDatabase: (name: string) => Promise<void>;
  /** Creates the run's platform and customer databases and names its key prefix, all registered for the clean-up. */
  provisionStores: (keyPrefixStem: string) => Promise<BenchStores>;
  /** Keeps the work directory (logs, CPU profiles) after a successful run. */
  keepWorkDir: () => void;
}
