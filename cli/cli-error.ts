/** A usage or input error: printed as one line on stderr, exit code 2. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}

export function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new CliError(`missing --${name}`);
  return value;
}
