/**
 * The fixed guardrails of a flow (docs/DESIGN.md section 6). Safe to import in the browser: the editor
 * shows them and the zod schemas enforce them.
 */
export const FLOW_LIMITS = {
  /** Steps per flow. */
  maxSteps: 20,
  /** Wall-clock budget of one run; every step's abort signal fires at the latest when it is used up. */
  runBudgetMs: 30_000,
  /** Records per query step. */
  maxQueryLimit: 100,
  /** Relation fields one query step may expand. */
  maxExpand: 10,
  /** Timeout of one outbound call (HTTP request, webhook delivery). */
  outboundTimeoutMs: 10_000,
  /** Captured size of an HTTP reply. */
  maxHttpResponseBytes: 262_144,
  /** Time limit of one database operation (query, create, update) inside the run budget. */
  databaseTimeoutMs: 10_000,
  /** Time limit of sending one email inside the run budget. */
  mailTimeoutMs: 15_000,
  /** Characters of one JMESPath expression. */
  maxExpressionLength: 2_000,
  /** Depth of nested brackets, braces and parentheses in one JMESPath expression. */
  maxExpressionNesting: 16,
  /** Serialised size (JSON characters) of a transform's output and of any string it builds. */
  maxTransformOutputChars: 1_048_576,
  /**
   * Evaluation work of one transform (visited nodes plus array elements and string kilobytes
   * produced). Transforms are synchronous and cannot be cut off by a signal, so this bounds their CPU.
   */
  maxTransformWork: 500_000,
  /** Checks in one condition step. */
  maxConditionChecks: 20,
  /** Extra headers of an HTTP request or webhook step. */
  maxHeaders: 30,
  /** Recipients of one email step. */
  maxEmailRecipients: 50,
} as const;

export type FlowLimits = typeof FLOW_LIMITS;
