import { AppError } from "@/lib/errors";
import { findSlowPattern } from "./probe-pattern-speed";
import { FIELD_LIMITS } from "./field-limits";
import { validateSchemaSet, type SchemaDefinition } from "./schema-definition";

export interface CheckSchemaFitsProjectOptions {
  definition: SchemaDefinition;
  /** The project's other schemas (without the one being saved). */
  others: readonly SchemaDefinition[];
  /** Patterns already saved and probed (an update need not probe them again). */
  knownPatterns?: ReadonlySet<string>;
}

/**
 * The checks a definition needs beyond its own shape before it is saved: it fits the project's
 * other schemas (validateSchemaSet, issues of this schema only: the others were consistent
 * before), and its new string patterns match fast enough. Throws AppError("validation_failed").
 */
export async function checkSchemaFitsProject(options: CheckSchemaFitsProjectOptions): Promise<void> {
  const { definition } = options;
  const issues = validateSchemaSet([...options.others, definition])
    .filter((issue) => issue.schema === definition.name)
    .map(({ path, message }) => ({ path, message }));
  if (issues.length > 0) {
    throw new AppError("validation_failed", `invalid schema definition: ${issues[0]?.path}: ${issues[0]?.message}`, { issues });
  }

  const patterns = definition.fields.flatMap((field, index) =>
    field.type === "string" && field.pattern !== undefined && !options.knownPatterns?.has(field.pattern)
      ? [{ index, pattern: field.pattern, maxLength: field.max ?? FIELD_LIMITS.stringMaxLength }]
      : [],
  );
  const slow = await findSlowPattern(patterns);
  if (slow !== null) {
    const index = patterns.find((item) => item.pattern === slow)?.index ?? 0;
    const message = "takes too long to match some inputs (catastrophic backtracking); simplify it, for example avoid several overlapping repetitions";
    throw new AppError("validation_failed", `invalid schema definition: fields.${index}.pattern ${message}`, { issues: [{ path: `fields.${index}.pattern`, message }] });
  }
}
