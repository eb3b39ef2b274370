"use client";

import { AppLink as Link } from "@/components/ui/app-link";
import { useImperativeHandle, useState, useTransition, type Ref } from "react";
import type { TriggerType } from "@/lib/automations/automation-definition";
import type { ReplayProblem, ReplayRequest } from "@/lib/flow/execution-log/replay-request";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormError, Notice } from "@/components/ui/form-error";
import type { ActionResult } from "@/lib/http/action-result";
import { describedBy, FieldShell } from "@/components/ui/field";
import { Textarea } from "@/components/endpoints/form-controls";
import { messageAt } from "@/components/endpoints/issues";
import { ShortcutButton } from "@/components/endpoints/editor-shell";
import { ReplayNotice } from "@/components/endpoints/test-run-panel";

/** A payload shaped like what the trigger would give, so a manual run exercises the same templates. */
const SAMPLE_PAYLOADS: Record<TriggerType, string> = {
  form: '{\n  "form": "contact",\n  "fields": { "email": "ada@example.com", "message": "Hello" }\n}',
  record: '{\n  "event": "create",\n  "schema": "tickets",\n  "record": { "id": "rec_sample", "status": "open" },\n  "previous": null\n}',
  schedule: '{\n  "scheduledAt": "2030-01-01T09:00:00.000Z"\n}',
  manual: "{}",
};

/** The payload text as a JSON object, or why not. */
export function parsePayload(text: string): { ok: true; payload: Record<string, unknown> } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, payload: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: false, message: 'The payload must be a JSON object, such as {"name": "Ada"}.' };
    return { ok: true, payload: value as Record<string, unknown> };
  } catch {
    return { ok: false, message: "The payload is not valid JSON." };
  }
}

/** What the editor can do to the panel: queue a run (the Ctrl+Enter shortcut). */
export interface RunNowPanelHandle {
  run: () => void;
}

/**
 * Run now: queues a manual run of the saved automation (enabled or not) with a JSON payload the
 * flow reads as {{trigger.…}}, and links to the run's log. The run is real, which the panel says.
 * A replay (`?replay=<executionId>`) starts it with a logged run's trigger payload.
 */
export function RunNowPanel({
  projectId,
  triggerType,
  run,
  replay,
  replayProblem,
  unsavedChanges = false,
  ref,
}: {
  projectId: string;
  triggerType: TriggerType;
  run: (payload: Record<string, unknown>) => Promise<ActionResult<{ executionId: string }>>;
  replay?: ReplayRequest | null;
  replayProblem?: ReplayProblem | null;
  /** The editor beside the panel holds changes not saved yet, which a run would not use. */
  unsavedChanges?: boolean;
  ref?: Ref<RunNowPanelHandle>;
}) {
  const [text, setText] = useState(replay?.bodyText ?? SAMPLE_PAYLOADS[triggerType]);
  const [problem, setProblem] = useState<{ field?: string; message?: string; issues: string[] }>();
  const [queued, setQueued] = useState<string>();
  const [pending, startTransition] = useTransition();

  function start() {
    const parsed = parsePayload(text);
    setQueued(undefined);
    if (!parsed.ok) {
      setProblem({ field: parsed.message, issues: [] });
      return;
    }
    setProblem(undefined);
    startTransition(async () => {
      const result = await run(parsed.payload);
      if (result.ok) return setQueued(result.data.executionId);
      const field = messageAt(result.issues, "payload");
      const rest = result.issues
        .filter((issue) => issue.path !== "payload" && !issue.path.startsWith("payload."))
        .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
      setProblem({ field, message: field ? undefined : result.error, issues: rest });
    });
  }

  useImperativeHandle(ref, () => ({ run: () => (pending ? undefined : start()) }));

  const hint = "Read by the flow as {{trigger.…}}. At most 100 KB.";
  return (
    <Card aria-labelledby="run-now-heading">
      <CardHeader
        title={<span id="run-now-heading">Run now</span>}
        description="Queues a run of the saved automation with this payload, whatever its trigger and even while it is disabled."
      />
      <CardBody className="space-y-4">
        <div role="note" className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-950">
          <span aria-hidden="true" className="font-bold">
            !
          </span>
          <p>
            <strong>Runs are real.</strong> Create and update steps write records, emails are sent and HTTP requests and webhooks are made. Unsaved changes in the editor are not
            used: save first.
          </p>
        </div>
        {replay && <ReplayNotice projectId={projectId} replay={replay} loaded="payload" />}
        {replayProblem && <Notice tone="warning">{replayProblem.message}</Notice>}
        <FieldShell id="run-payload" label="Payload (JSON)" error={problem?.field} hint={hint}>
          <Textarea
            id="run-payload"
            rows={6}
            mono
            value={text}
            onChange={(event) => setText(event.target.value)}
            invalid={Boolean(problem?.field)}
            aria-describedby={describedBy("run-payload", hint, problem?.field)}
          />
        </FieldShell>
        <FormError message={problem?.message} issues={problem?.issues} />
        {queued && (
          <Notice>
            Run queued as <code className="font-mono text-xs">{queued}</code>.{" "}
            <Link href={`/projects/${projectId}/executions/${queued}`} className="font-medium underline underline-offset-2">
              Open its log
            </Link>{" "}
            (it appears once the run has finished).
          </Notice>
        )}
        <div className="flex items-center justify-end gap-3">
          {unsavedChanges && <p className="mr-auto text-xs text-amber-900">The editor has unsaved changes: this run uses the saved version.</p>}
          <ShortcutButton shortcut="run" pending={pending} onClick={start}>
            Run now
          </ShortcutButton>
        </div>
      </CardBody>
    </Card>
  );
}
