import { log } from "@/lib/log";
import { evaluateCheck } from "@/lib/flow/steps/condition/evaluate-check";
import type { RecordTrigger } from "./automation-definition";

/**
 * A record trigger's optional condition, in the condition step's check syntax, over `trigger.*`
 * (e.g. {{trigger.record.status}} equals closed and {{trigger.previous.status}} not_equals closed).
 * No condition passes; a check that cannot be evaluated fails (and is logged), so a broken
 * condition never starts runs the owner did not ask for.
 */
export function checkTriggerCondition(condition: RecordTrigger["condition"], trigger: unknown, automationId: string): boolean {
  if (!condition) return true;
  const scope = { trigger };
  try {
    return condition.combinator === "all" ? condition.checks.every((check) => evaluateCheck(check, scope)) : condition.checks.some((check) => evaluateCheck(check, scope));
  } catch (error) {
    log.warn("record trigger condition could not be evaluated", { automationId, error });
    return false;
  }
}
