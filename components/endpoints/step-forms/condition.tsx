"use client";

import type { ReactNode } from "react";
import type { ErrorIssue } from "@/lib/errors";
import { CONDITION_OPERATORS, UNARY_OPERATORS, type ConditionOperator } from "@/lib/flow/steps/condition/catalog";
import { FLOW_LIMITS } from "@/lib/flow/limits";
import { FieldError } from "@/components/ui/form-error";
import { FieldShell, TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { RemoveRowButton, RowListFooter } from "../form-controls";
import { newKey, type CheckDraft } from "../endpoint-draft";
import { issuesUnder, messageAt } from "../issues";
import { TemplateInput } from "../template-field";
import { CheckVerdict } from "../live-previews";
import { useLastRunCheckReport, useLastRunCheckStale } from "../template-scope";
import { useSetting, type SettingsProps } from "./shared";

const OPERATOR_LABELS: Record<ConditionOperator, string> = {
  equals: "equals",
  not_equals: "does not equal",
  contains: "contains",
  greater_than: "is greater than",
  less_than: "is less than",
  exists: "exists",
  not_exists: "does not exist",
};

export function ConditionSettings(props: SettingsProps) {
  const { step, onChange, issues } = props;
  const { text, set, id, error } = useSetting(props);
  return (
    <div className="space-y-4">
      <ConditionChecks idPrefix={step.key} checks={step.checks} onChange={(checks) => onChange({ checks })} issues={issuesUnder(issues, "checks")} />
      <div className="grid gap-4 @xl:grid-cols-[12rem_10rem_1fr]">
        <PassWhenField id={id("combinator")} value={text("combinator") === "any" ? "any" : "all"} onChange={(value) => set("combinator", value)} error={error("combinator")} />
        <TextField
          id={id("stopStatus")}
          label="Stop status"
          error={error("stopStatus")}
          hint="Default 422."
          type="number"
          min={200}
          max={599}
          value={text("stopStatus")}
          onChange={(event) => set("stopStatus", event.target.value)}
          placeholder="422"
        />
        <FieldShell id={id("stopBody")} label="Stop body" error={error("stopBody")} hint='Default {"error":"condition not met"}.'>
          <TemplateInput
            id={id("stopBody")}
            value={text("stopBody")}
            onValueChange={(value) => set("stopBody", value)}
            placeholder='{"error": "status is required"}'
            className="font-mono"
            invalid={Boolean(error("stopBody"))}
          />
        </FieldShell>
      </div>
    </div>
  );
}

/** Whether a condition passes when all its checks pass or when any does. */
export function PassWhenField({
  id,
  value,
  onChange,
  error,
  className,
}: {
  id: string;
  value: "all" | "any";
  onChange: (value: "all" | "any") => void;
  error?: string;
  className?: string;
}) {
  return (
    <FieldShell id={id} label="Pass when" error={error} className={className}>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value === "any" ? "any" : "all")}>
        <option value="all">all checks pass</option>
        <option value="any">any check passes</option>
      </Select>
    </FieldShell>
  );
}

/**
 * The checks of a condition: left template, operator, right template, remove, "+ Add check". Used by
 * the condition step and by an automation's record trigger condition. `issues` are relative to the
 * checks (`0.left`, or "" for the list as a whole); ids start with `idPrefix`.
 */
export function ConditionChecks({
  idPrefix,
  checks,
  onChange,
  issues,
  hint = <>Each side is a template such as {"{{body.status}}"} or a literal; numbers compare as numbers.</>,
  leftPlaceholder = "{{body.status}}",
}: {
  idPrefix: string;
  checks: readonly CheckDraft[];
  onChange: (checks: CheckDraft[]) => void;
  issues: readonly ErrorIssue[];
  hint?: ReactNode;
  leftPlaceholder?: string;
}) {
  const updateCheck = (key: string, patch: Partial<CheckDraft>) => onChange(checks.map((check) => (check.key === key ? { ...check, ...patch } : check)));
  const wholeChecks = issues.find((issue) => issue.path === "")?.message;
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-medium text-slate-700">Checks</legend>
      <p className="text-xs text-slate-500">{hint}</p>
      <div className="mt-2 space-y-2">
        {checks.map((check, index) => {
          const unary = UNARY_OPERATORS.has(check.operator);
          const checkIssues = issuesUnder(issues, String(index));
          const checkId = `${idPrefix}-${check.key}`;
          return (
            <div key={check.key}>
              <CheckRow checkKey={check.key} checkId={checkId}>
                {/* Wraps in a narrow flow pane, so that neither side shrinks to a few characters. */}
                <div className="flex flex-wrap items-start gap-2">
                  <div className="min-w-36 flex-1">
                    <label htmlFor={`${checkId}-left`} className="sr-only">{`Check ${index + 1} left side`}</label>
                    <TemplateInput
                      id={`${checkId}-left`}
                      value={check.left}
                      onValueChange={(left) => updateCheck(check.key, { left })}
                      placeholder={leftPlaceholder}
                      className="font-mono"
                      invalid={Boolean(messageAt(checkIssues, "left"))}
                      aria-describedby={checkIssues.length > 0 ? `${checkId}-error` : undefined}
                    />
                  </div>
                  <div className="w-44 shrink-0">
                    <label htmlFor={`${checkId}-operator`} className="sr-only">{`Check ${index + 1} operator`}</label>
                    <Select id={`${checkId}-operator`} value={check.operator} onChange={(event) => updateCheck(check.key, { operator: event.target.value as ConditionOperator })}>
                      {CONDITION_OPERATORS.map((operator) => (
                        <option key={operator} value={operator}>
                          {OPERATOR_LABELS[operator]}
                        </option>
                      ))}
                    </Select>
                  </div>
                  <div className={unary ? "flex-1" : "min-w-36 flex-1"}>
                    {!unary && (
                      <>
                        <label htmlFor={`${checkId}-right`} className="sr-only">{`Check ${index + 1} right side`}</label>
                        <TemplateInput
                          id={`${checkId}-right`}
                          value={check.right}
                          onValueChange={(right) => updateCheck(check.key, { right })}
                          placeholder="open"
                          className="font-mono"
                          invalid={Boolean(messageAt(checkIssues, "right"))}
                          aria-describedby={checkIssues.length > 0 ? `${checkId}-error` : undefined}
                        />
                      </>
                    )}
                  </div>
                  <div className="pt-1">
                    <RemoveRowButton label={`Remove check ${index + 1}`} onClick={() => onChange(checks.filter((candidate) => candidate.key !== check.key))} />
                  </div>
                </div>
                {checkIssues.length > 0 && (
                  <FieldError id={`${checkId}-error`} message={checkIssues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ")} />
                )}
              </CheckRow>
            </div>
          );
        })}
      </div>
      <RowListFooter
        id={`${idPrefix}-checks`}
        error={wholeChecks}
        addLabel="Add check"
        disabled={checks.length >= FLOW_LIMITS.maxConditionChecks}
        onAdd={() => onChange([...checks, { key: newKey("check"), left: "", operator: "equals", right: "" }])}
      />
    </fieldset>
  );
}

/** A check's row with, under it, how the last test run decided that check (when it ran). */
function CheckRow({ checkKey, checkId, children }: { checkKey: string; checkId: string; children: ReactNode }) {
  const report = useLastRunCheckReport(checkKey);
  const stale = useLastRunCheckStale(checkKey);
  return (
    <>
      {children}
      {report && <CheckVerdict id={`${checkId}-verdict`} report={report} stale={stale} />}
    </>
  );
}
