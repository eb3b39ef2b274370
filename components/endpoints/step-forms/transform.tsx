"use client";

import { describedBy, FieldShell } from "@/components/ui/field";
import { Textarea } from "../form-controls";
import { TransformPreview } from "../live-previews";
import { useSetting, type SettingsProps } from "./shared";

export function TransformSettings(props: SettingsProps) {
  const { text, set, id, error } = useSetting(props);
  const hint = (
    <>
      A JMESPath expression over the whole context: <code className="font-mono">body</code>, <code className="font-mono">query</code>, <code className="font-mono">user</code>,{" "}
      <code className="font-mono">steps.&lt;name&gt;</code>. Example: <code className="font-mono">{"steps.query1[?status=='open'].{id: id, title: title}"}</code>
    </>
  );
  return (
    <div>
      <FieldShell id={id("expression")} label="Expression" error={error("expression")} hint={hint}>
        <Textarea
          id={id("expression")}
          rows={4}
          mono
          value={text("expression")}
          onChange={(event) => set("expression", event.target.value)}
          placeholder="{open: length(steps.query1[?status=='open']), total: length(steps.query1)}"
          invalid={Boolean(error("expression"))}
          aria-describedby={describedBy(id("expression"), hint, error("expression"))}
        />
      </FieldShell>
      <TransformPreview id={id("expression-preview")} expression={text("expression")} />
    </div>
  );
}
