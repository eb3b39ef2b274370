import type { AutomationTrigger, TriggerType } from "@/lib/automations/automation-definition";
import { Badge, type BadgeTone } from "@/components/ui/badge";

export const TRIGGER_LABELS: Record<TriggerType, { label: string; description: string }> = {
  form: { label: "Form", description: "A submission to the form's public URL, from an HTML form or fetch." },
  record: { label: "Record change", description: "A record of a schema is created, updated or deleted (not by a flow)." },
  schedule: { label: "Schedule", description: "A cron schedule in a time zone of your choice." },
  manual: { label: "Manual", description: "Only when started with Run now or the API, with a JSON payload." },
};

const TONES: Record<TriggerType, BadgeTone> = { form: "indigo", record: "green", schedule: "amber", manual: "neutral" };

/** The trigger's key detail in a few words: the form slug, the schema and events, the cron expression. */
export function triggerDetail(trigger: AutomationTrigger): string | null {
  switch (trigger.type) {
    case "form":
      return `/${trigger.form}`;
    case "record":
      return `${trigger.schema}: ${trigger.events.join(", ")}${trigger.condition ? " (with checks)" : ""}`;
    case "schedule":
      return `${trigger.cron} (${trigger.timezone})`;
    case "manual":
      return null;
  }
}

/** What starts an automation, in words (the colour only repeats them). */
export function TriggerBadge({ trigger }: { trigger: AutomationTrigger }) {
  const detail = triggerDetail(trigger);
  return (
    <span className="inline-flex min-w-0 items-center gap-2">
      <Badge tone={TONES[trigger.type]}>{TRIGGER_LABELS[trigger.type].label}</Badge>
      {detail && <span className="truncate font-mono text-xs text-slate-600">{detail}</span>}
    </span>
  );
}
