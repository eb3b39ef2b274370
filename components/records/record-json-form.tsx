"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { FormError, Notice } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import type { ActionResult } from "@/lib/http/action-result";
import { Textarea } from "@/components/endpoints/form-controls";

/**
 * A record's field values as JSON, checked by the records service (required, types, unique,
 * relations) exactly like an API write; its issues are listed by field path.
 */
export function RecordJsonForm({
  id,
  label,
  initialText,
  submitLabel,
  action,
  redirectTo,
}: {
  id: string;
  label: string;
  initialText: string;
  submitLabel: string;
  action: (input: unknown) => Promise<ActionResult<{ id: string }>>;
  /** Where to go after success (`{id}` is replaced by the record id); none: stay and say it was saved. */
  redirectTo?: string;
}) {
  const router = useRouter();
  const [text, setText] = useState(initialText);
  const [problem, setProblem] = useState<{ message: string; issues: string[] }>();
  const [saved, setSaved] = useState(false);
  const [pending, startTransition] = useTransition();

  function submit() {
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch {
      setProblem({ message: "That is not valid JSON.", issues: [] });
      return;
    }
    setProblem(undefined);
    setSaved(false);
    startTransition(async () => {
      const result = await action(input);
      if (!result.ok) return setProblem({ message: result.error, issues: result.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)) });
      if (redirectTo) router.push(redirectTo.replace("{id}", result.data.id));
      else setSaved(true);
    });
  }

  return (
    <div className="space-y-3">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <Textarea id={id} rows={Math.min(24, Math.max(8, text.split("\n").length + 1))} mono value={text} onChange={(event) => (setSaved(false), setText(event.target.value))} />
      <FormError message={problem?.message} issues={problem?.issues} />
      {saved && <Notice>Record saved.</Notice>}
      <div className="flex justify-end">
        <Button onClick={submit} busy={pending}>
          {pending && <Spinner />}
          {submitLabel}
        </Button>
      </div>
    </div>
  );
}
