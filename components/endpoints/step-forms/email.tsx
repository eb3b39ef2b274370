"use client";

import { FieldShell } from "@/components/ui/field";
import { NameSelect, Select } from "@/components/ui/input";
import { TemplateInput } from "../template-field";
import { TemplateAreaSetting, useSetting, type SettingsProps } from "./shared";

export function EmailSettings(props: SettingsProps) {
  const { text, set, id, error } = useSetting(props);
  const template = text("template");
  return (
    <div className="space-y-4">
      <div className="grid gap-4 @xl:grid-cols-2">
        <FieldShell id={id("to")} label="To" error={error("to")} hint="Addresses separated by commas; placeholders allowed.">
          <TemplateInput
            id={id("to")}
            value={text("to")}
            onValueChange={(value) => set("to", value)}
            placeholder="{{body.email}}"
            className="font-mono"
            invalid={Boolean(error("to"))}
          />
        </FieldShell>
        <FieldShell id={id("template")} label="Content" error={error("template")}>
          <NameSelect
            id={id("template")}
            names={props.emailTemplates}
            emptyLabel="Write subject and body here"
            format={(name) => `Saved template: ${name}`}
            value={template}
            onChange={(event) => set("template", event.target.value)}
          />
        </FieldShell>
      </div>
      {template === "" && (
        <>
          <div className="grid gap-4 @xl:grid-cols-[1fr_10rem]">
            <FieldShell id={id("subject")} label="Subject" error={error("subject")}>
              <TemplateInput
                id={id("subject")}
                value={text("subject")}
                onValueChange={(value) => set("subject", value)}
                placeholder="Thanks, {{body.name}}"
                invalid={Boolean(error("subject"))}
              />
            </FieldShell>
            <FieldShell id={id("format")} label="Format" error={error("format")}>
              <Select id={id("format")} value={text("format") || "text"} onChange={(event) => set("format", event.target.value)}>
                <option value="text">Plain text</option>
                <option value="html">HTML</option>
              </Select>
            </FieldShell>
          </div>
          <TemplateAreaSetting
            props={props}
            name="body"
            label="Body"
            hint={text("format") === "html" ? "Values placed into HTML are escaped." : undefined}
            rows={5}
            mono={false}
            placeholder={"Hello {{body.name}},\n\nWe received your request."}
          />
        </>
      )}
    </div>
  );
}
