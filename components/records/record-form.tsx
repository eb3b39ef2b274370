"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Notice } from "@/components/ui/form-error";
import { Input, Select } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/endpoints/form-controls";
import { FIELD_TYPE_LABELS } from "@/components/schemas/field-types";
import type { ErrorIssue } from "@/lib/errors";
import type { ActionResult } from "@/lib/http/action-result";
import type { RecordChoice } from "@/lib/records-service/find-record-choices";
import { effectiveFields, type FieldDefinition, type SchemaDefinition } from "@/lib/schemas/schema-definition";
import {
  componentLookup,
  controlId,
  draftToRecord,
  issuesByControl,
  jsonTextToDraft,
  newGroupDraft,
  newRecordDraft,
  parseJsonText,
  recordToDraft,
  type ComponentLookup,
  type DraftValue,
  type DraftValues,
  type GroupDraft,
} from "./record-form-values";
import { RelationPicker, type SearchRecordChoices } from "./relation-picker";

type FormSchema = Pick<SchemaDefinition, "name" | "kind" | "fields">;

/** The last refused save: its issues, and the drafts they were found in (their paths name list items by position then). */
interface Refusal {
  message: string;
  issues: ErrorIssue[];
  drafts: DraftValues | null;
}

/** Files chosen in file fields by control path (list items named by key), sent with the save as multipart uploads under their value paths. */
type PendingFiles = Record<string, File>;

interface FormContext {
  formId: string;
  lookup: ComponentLookup;
  errors: ReadonlyMap<string, string[]>;
  choices: ReadonlyMap<string, RecordChoice>;
  rememberChoice: (choice: RecordChoice) => void;
  search: SearchRecordChoices;
  projectId: string;
  pendingFiles: PendingFiles;
  setPendingFile: (field: string, file: File | null) => void;
  newKey: () => string;
}

/**
 * A record edited as a form generated from its schema: one labelled control per field type,
 * relation pickers that search the related records, components and dynamic zones as nested groups
 * that can be added, removed and moved, and "Edit as JSON" for the same values as JSON. Every issue
 * of a refused save is shown at its field at once, with a summary on top that takes the focus and
 * links to each field. Saving is checked by the records service exactly like an API write.
 */
export function RecordForm({
  formId,
  projectId,
  schema,
  components,
  record,
  recordId,
  relationChoices,
  submitLabel,
  action,
  search,
  takenUniqueValues,
  redirectTo,
}: {
  formId: string;
  projectId: string;
  schema: FormSchema;
  /** The project's component schemas (the groups' fields). */
  components: FormSchema[];
  /** The record's values; null for a new record (the fields' defaults). */
  record: Record<string, unknown> | null;
  /** The record being edited (uploads go to its records API address). */
  recordId?: string;
  /** The related records the values already point at, for their labels. */
  relationChoices: RecordChoice[];
  submitLabel: string;
  action: (input: unknown) => Promise<ActionResult<{ id: string }>>;
  search: SearchRecordChoices;
  /** The unique fields of some values another record holds: merged into a refused upload's issues. */
  takenUniqueValues?: (input: unknown) => Promise<ActionResult<ErrorIssue[]>>;
  /** Where to go after success (`{id}` is replaced by the record id); none: stay and say it was saved. */
  redirectTo?: string;
}) {
  const router = useRouter();
  const lookup = useMemo(() => componentLookup(components.map((component) => ({ ...component, kind: "component" as const }))), [components]);
  const [drafts, setDrafts] = useState<DraftValues>(() => (record ? recordToDraft(schema, record, lookup) : newRecordDraft(schema, lookup)));
  const [mode, setMode] = useState<"form" | "json">("form");
  const [jsonText, setJsonText] = useState("");
  const [switchProblem, setSwitchProblem] = useState<string>();
  const [refusal, setRefusal] = useState<Refusal>();
  const [saved, setSaved] = useState(false);
  const [pendingFiles, setPendingFiles] = useState<PendingFiles>({});
  const [choices, setChoices] = useState(() => new Map(relationChoices.map((choice) => [choice.id, choice])));
  const [pending, startTransition] = useTransition();
  const summaryRef = useRef<HTMLDivElement>(null);
  const keyCounter = useRef(0);

  const errors = useMemo(() => (refusal?.drafts ? issuesByControl(schema, refusal.drafts, refusal.issues, lookup) : new Map<string, string[]>()), [refusal, schema, lookup]);

  useEffect(() => {
    if (refusal) summaryRef.current?.focus();
  }, [refusal]);

  const context: FormContext = {
    formId,
    lookup,
    errors,
    choices,
    rememberChoice: (choice) => setChoices((current) => new Map(current).set(choice.id, choice)),
    search,
    projectId,
    pendingFiles,
    setPendingFile: (field, file) =>
      setPendingFiles((current) => {
        const next = { ...current };
        if (file) next[field] = file;
        else delete next[field];
        return next;
      }),
    newKey: () => `n${++keyCounter.current}`,
  };

  function changeDrafts(next: DraftValues) {
    setSaved(false);
    setDrafts(next);
  }

  function switchTo(next: "form" | "json") {
    setSwitchProblem(undefined);
    if (next === "json") {
      const { record: values, issues } = draftToRecord(schema, drafts, lookup);
      if (issues.length > 0) return setSwitchProblem(`Fix ${issues.map((issue) => issue.path).join(", ")} first: ${issues[0]!.message}.`);
      setJsonText(JSON.stringify(values, null, 2));
      setMode("json");
    } else {
      const read = jsonTextToDraft(schema, jsonText, lookup);
      if (!read.ok) return setSwitchProblem(read.message);
      setDrafts(read.drafts);
      // The JSON lists items in the order they were sent, and reading it names them afresh: the
      // last refusal's positions now point into these drafts.
      setRefusal((current) => current && { ...current, drafts: read.drafts });
      setMode("form");
    }
  }

  function refuse(message: string, issues: ErrorIssue[], at: DraftValues | null) {
    setRefusal({ message, issues, drafts: at });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    let input: Record<string, unknown>;
    let at: DraftValues | null = drafts;
    let uploads: PendingFiles = {};
    if (mode === "json") {
      // The JSON box keeps the API's PATCH meaning: the keys given are the fields changed.
      const parsed = parseJsonText(jsonText);
      if (!parsed.ok || typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) {
        return refuse("The record was not saved.", [{ path: "", message: parsed.ok ? "The JSON must be an object of field values" : `The JSON ${parsed.message}` }], null);
      }
      input = parsed.value as Record<string, unknown>;
      const read = jsonTextToDraft(schema, jsonText, lookup);
      at = read.ok ? read.drafts : null;
    } else {
      const { record: values, issues, skipped } = draftToRecord(schema, drafts, lookup, new Set(Object.keys(pendingFiles)));
      if (issues.length > 0) return refuse("The record was not saved: fix the fields below.", issues, drafts);
      input = values;
      // Each chosen file goes under its value path as the entries stand now (a removed entry's file stays behind).
      uploads = Object.fromEntries(Object.entries(skipped).map(([control, valuePath]) => [valuePath, pendingFiles[control]!]));
    }
    startTransition(async () => {
      const result = Object.keys(uploads).length > 0 ? await saveWithUploads(input, uploads) : await action(input);
      if (!result.ok) return refuse(result.error, result.issues.length > 0 ? result.issues : [], at);
      setRefusal(undefined);
      setPendingFiles({});
      if (redirectTo) router.push(redirectTo.replace("{id}", result.data.id));
      else {
        setSaved(true);
        router.refresh();
      }
    });
  }

  /**
   * Files travel as the records API's multipart write (the dashboard session may make it): server
   * actions cap their bodies far below a file field's limit. Its error body has the action's issues.
   */
  async function saveWithUploads(values: Record<string, unknown>, uploads: PendingFiles): Promise<ActionResult<{ id: string }>> {
    const body = new FormData();
    body.append("data", new Blob([JSON.stringify(values)], { type: "application/json" }));
    for (const [field, file] of Object.entries(uploads)) body.append(field, file, file.name);
    const base = `/api/projects/${encodeURIComponent(projectId)}/records/${encodeURIComponent(schema.name)}`;
    try {
      const response = await fetch(recordId ? `${base}/${encodeURIComponent(recordId)}` : base, { method: recordId ? "PATCH" : "POST", body, credentials: "same-origin" });
      const answer = (await response.json().catch(() => ({}))) as { id?: string; error?: string; issues?: ErrorIssue[]; field?: string };
      if (response.ok && answer.id) return { ok: true, data: { id: answer.id } };
      const issues = [...(answer.issues ?? [])];
      if (answer.field && !issues.some((issue) => issue.path === answer.field)) issues.push({ path: answer.field, message: answer.error ?? "is refused" });
      // The API names invalid values (422) before it checks unique ones, and one taken value (409):
      // the form shows every problem at once, so it asks for the others.
      if ((response.status === 422 || response.status === 409) && takenUniqueValues) {
        const taken = await takenUniqueValues(values).catch(() => null);
        if (taken?.ok) issues.push(...taken.data.filter((issue) => !issues.some((known) => known.path === issue.path)));
      }
      const error = answer.error ? answer.error[0]!.toUpperCase() + answer.error.slice(1) : `The upload failed (HTTP ${response.status}).`;
      return { ok: false, error, issues };
    } catch {
      return { ok: false, error: "The upload could not reach the server. Check your connection and try again.", issues: [] };
    }
  }

  const summaryIssues = refusal?.issues ?? [];
  return (
    <form id={formId} onSubmit={submit} noValidate className="space-y-5">
      {refusal && (
        <div
          ref={summaryRef}
          tabIndex={-1}
          role="alert"
          aria-labelledby={`${formId}-summary-title`}
          className="rounded-md border border-rose-200 bg-rose-50 px-4 py-3 text-sm text-rose-900 focus:outline-2 focus:outline-rose-600"
        >
          <p id={`${formId}-summary-title`} className="font-semibold">
            {summaryIssues.length > 1 ? `${summaryIssues.length} problems stop this record from being saved.` : refusal.message}
          </p>
          {summaryIssues.length > 0 && (
            <ul className="mt-1 list-disc space-y-0.5 pl-5">
              {summaryIssues.map((issue, index) => (
                <li key={`${issue.path}-${index}`}>
                  <IssueLink formId={formId} issue={issue} schema={schema} drafts={refusal.drafts} lookup={lookup} linkable={mode === "form"} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">
          Fields marked <span aria-hidden="true">*</span>
          <span className="sr-only">required</span> are required.
        </p>
        <Button variant="secondary" size="sm" onClick={() => switchTo(mode === "form" ? "json" : "form")} aria-pressed={mode === "json"}>
          {mode === "form" ? "Edit as JSON" : "Edit as form"}
        </Button>
      </div>
      {switchProblem && (
        <Notice tone="warning" className="text-sm">
          {switchProblem}
        </Notice>
      )}
      {mode === "form" ? (
        <FieldList context={context} fields={effectiveFields(schema)} values={drafts} path="" onChange={changeDrafts} />
      ) : (
        <div className="space-y-1">
          <label htmlFor={`${formId}-json`} className="block text-sm font-medium text-slate-700">
            Field values (JSON)
          </label>
          <Textarea
            id={`${formId}-json`}
            rows={Math.min(28, Math.max(10, jsonText.split("\n").length + 1))}
            mono
            value={jsonText}
            aria-describedby={`${formId}-json-hint`}
            onChange={(event) => (setSaved(false), setJsonText(event.target.value))}
          />
          <p id={`${formId}-json-hint`} className="text-xs text-slate-600">
            The keys given are the fields saved{recordId ? "; fields left out keep their values" : ""}.
            {Object.keys(pendingFiles).length > 0 ? " Files chosen in the form are uploaded only when you save from the form." : ""}
          </p>
        </div>
      )}
      {saved && <Notice>Record saved.</Notice>}
      <div className="flex justify-end">
        <Button type="submit" busy={pending}>
          {pending && <Spinner />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function IssueLink({
  formId,
  issue,
  schema,
  drafts,
  lookup,
  linkable,
}: {
  formId: string;
  issue: ErrorIssue;
  schema: FormSchema;
  drafts: DraftValues | null;
  lookup: ComponentLookup;
  linkable: boolean;
}) {
  const text = issue.path ? `${issue.path}: ${issue.message}` : issue.message;
  const target = drafts && linkable ? controlPathFor(schema, drafts, issue, lookup) : "";
  if (!target) return <>{text}</>;
  const id = controlId(formId, target);
  return (
    <a
      href={`#${id}`}
      className="underline underline-offset-2 hover:text-rose-700 focus-visible:outline-2 focus-visible:outline-rose-600"
      onClick={(event) => {
        const control = document.getElementById(id);
        if (!control) return;
        event.preventDefault();
        control.scrollIntoView({ block: "center" });
        control.focus();
      }}
    >
      {text}
    </a>
  );
}

function controlPathFor(schema: FormSchema, drafts: DraftValues, issue: ErrorIssue, lookup: ComponentLookup): string {
  const byControl = issuesByControl(schema, drafts, [issue], lookup);
  return [...byControl.keys()][0] ?? "";
}

function FieldList({
  context,
  fields,
  values,
  path,
  onChange,
}: {
  context: FormContext;
  fields: readonly FieldDefinition[];
  values: DraftValues;
  path: string;
  onChange: (values: DraftValues) => void;
}) {
  return (
    <div className="space-y-4">
      {fields.map((field) => {
        const draft = values[field.name];
        if (!draft) return null;
        return (
          <FieldControl
            key={field.name}
            context={context}
            field={field}
            draft={draft}
            path={path ? `${path}.${field.name}` : field.name}
            onChange={(next) => onChange({ ...values, [field.name]: next })}
          />
        );
      })}
    </div>
  );
}

function RequiredMark({ required }: { required?: boolean }) {
  if (!required) return null;
  return (
    <>
      <span aria-hidden="true" className="ml-0.5 text-rose-700">
        *
      </span>
      <span className="sr-only"> (required)</span>
    </>
  );
}

function fieldHint(field: FieldDefinition): string {
  const type = FIELD_TYPE_LABELS[field.type];
  switch (field.type) {
    case "datetime":
      return `${type}, in UTC.`;
    case "richtext":
      return `${type}: stored as the text you type (HTML or Markdown, as your site renders it).`;
    case "json":
      return `${type}: any JSON value; empty for none.`;
    case "relation":
      return `${field.many ? "Records" : "A record"} of ${field.target}: type to search, or paste an exact id.`;
    case "file":
      return `${type}: choose a file to upload with the save.`;
    case "component":
      return field.repeatable ? `A list of ${field.component} items, in order.` : `A group of ${field.component} fields, or none.`;
    case "dynamic_zone":
      return `A list of items, in order; each is one of: ${field.components.join(", ")}.`;
    case "string":
    case "text":
      return field.max !== undefined ? `${type}, at most ${field.max} characters.` : `${type}.`;
    case "number":
    case "integer":
      return (
        [field.min !== undefined ? `at least ${field.min}` : "", field.max !== undefined ? `at most ${field.max}` : ""]
          .filter(Boolean)
          .join(", ")
          .replace(/^./, (first) => `${type}: ${first}`) || `${type}.`
      );
    default:
      return `${type}.`;
  }
}

/** Label, hint, errors and the control, wired by ids (label for, aria-describedby, aria-invalid). */
function Shell({ id, label, required, hint, errors, children }: { id: string; label: string; required?: boolean; hint: string; errors?: string[]; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        <span className="font-mono">{label}</span>
        <RequiredMark required={required} />
      </label>
      <div className="mt-1">{children}</div>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        {hint}
      </p>
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}

function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <ul id={`${id}-error`} className="mt-1 space-y-0.5 text-sm text-rose-700">
      {errors.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

function describedBy(id: string, errors?: string[]): string {
  return errors?.length ? `${id}-hint ${id}-error` : `${id}-hint`;
}

function FieldControl({
  context,
  field,
  draft,
  path,
  onChange,
}: {
  context: FormContext;
  field: FieldDefinition;
  draft: DraftValue;
  path: string;
  onChange: (draft: DraftValue) => void;
}) {
  const id = controlId(context.formId, path);
  const errors = context.errors.get(path);
  const invalid = Boolean(errors?.length);
  const hint = fieldHint(field);
  const common = { id, "aria-describedby": describedBy(id, errors), "aria-required": field.required || undefined, invalid };

  if (draft.kind === "component" || draft.kind === "list") {
    return <GroupField context={context} field={field} draft={draft} path={path} hint={hint} errors={errors} onChange={onChange} />;
  }

  if (draft.kind === "boolean") {
    return (
      <div>
        <label htmlFor={id} className="flex cursor-pointer items-center gap-2 text-sm text-slate-800">
          <input
            id={id}
            type="checkbox"
            checked={draft.checked}
            aria-describedby={describedBy(id, errors)}
            aria-invalid={invalid || undefined}
            onChange={(event) => onChange({ kind: "boolean", checked: event.target.checked })}
            className="size-4 shrink-0 rounded border-slate-300 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          />
          <span className="font-mono font-medium">{field.name}</span>
          <RequiredMark required={field.required} />
        </label>
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
        <FieldErrors id={id} errors={errors} />
      </div>
    );
  }

  if (draft.kind === "relation" && field.type === "relation") {
    return (
      <Shell id={id} label={field.name} required={field.required} hint={hint} errors={errors}>
        <RelationPicker
          id={id}
          label={field.name}
          target={field.target}
          many={Boolean(field.many)}
          ids={draft.ids}
          choices={context.choices}
          onChange={(ids, picked) => {
            if (picked) context.rememberChoice(picked);
            onChange({ kind: "relation", ids });
          }}
          search={context.search}
          describedBy={describedBy(id, errors)}
          invalid={invalid}
          required={field.required}
        />
      </Shell>
    );
  }

  if (draft.kind === "file") {
    return (
      <FileField context={context} field={field} path={path} fileId={draft.fileId} id={id} hint={hint} errors={errors} onChange={(fileId) => onChange({ kind: "file", fileId })} />
    );
  }

  if (draft.kind !== "text") return null;
  const setText = (text: string) => onChange({ kind: "text", text });
  let control: ReactNode;
  switch (field.type) {
    case "text":
      control = <Textarea {...common} rows={4} value={draft.text} onChange={(event) => setText(event.target.value)} />;
      break;
    case "richtext":
      control = <Textarea {...common} rows={8} value={draft.text} onChange={(event) => setText(event.target.value)} />;
      break;
    case "json":
      return <JsonField field={field} id={id} text={draft.text} hint={hint} errors={errors} onChange={setText} />;
    case "enum":
      control = (
        <Select {...common} value={draft.text} onChange={(event) => setText(event.target.value)}>
          <option value="">{field.required ? "Choose…" : "— none —"}</option>
          {field.values.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </Select>
      );
      break;
    case "number":
    case "integer":
      control = (
        <Input
          {...common}
          type="number"
          inputMode={field.type === "integer" ? "numeric" : "decimal"}
          step={field.type === "integer" ? 1 : "any"}
          min={field.min}
          max={field.max}
          value={draft.text}
          onChange={(event) => setText(event.target.value)}
        />
      );
      break;
    case "datetime":
      control = <Input {...common} type="datetime-local" step={1} value={draft.text} onChange={(event) => setText(event.target.value)} />;
      break;
    case "email":
      control = <Input {...common} type="email" autoComplete="off" value={draft.text} onChange={(event) => setText(event.target.value)} />;
      break;
    case "url":
      control = <Input {...common} type="url" value={draft.text} onChange={(event) => setText(event.target.value)} />;
      break;
    default:
      control = <Input {...common} type="text" maxLength={field.type === "string" ? field.max : undefined} value={draft.text} onChange={(event) => setText(event.target.value)} />;
  }
  return (
    <Shell id={id} label={field.name} required={field.required} hint={hint} errors={errors}>
      {control}
    </Shell>
  );
}

/** A JSON value's textarea, checked as you type: the parse error shows at once, before any save. */
function JsonField({
  field,
  id,
  text,
  hint,
  errors,
  onChange,
}: {
  field: FieldDefinition;
  id: string;
  text: string;
  hint: string;
  errors?: string[];
  onChange: (text: string) => void;
}) {
  const parsed = text.trim() === "" ? null : parseJsonText(text);
  const typing = parsed && !parsed.ok ? [`Not valid JSON yet: ${parsed.message.replace(/^is not valid JSON \((.*)\)$/, "$1")}`] : [];
  const shown = [...typing, ...(errors ?? [])];
  return (
    <Shell id={id} label={field.name} required={field.required} hint={hint} errors={shown}>
      <Textarea
        id={id}
        mono
        rows={Math.min(16, Math.max(3, text.split("\n").length + 1))}
        value={text}
        invalid={shown.length > 0}
        aria-describedby={describedBy(id, shown)}
        aria-required={field.required || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </Shell>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A file field, at the top level or inside a component or dynamic-zone entry: the stored file
 * (download link, remove) and a file input whose choice is uploaded with the save. The choice is
 * kept under the control's path, which names list items by key, so it moves with its entry.
 */
function FileField({
  context,
  field,
  path,
  fileId,
  id,
  hint,
  errors,
  onChange,
}: {
  context: FormContext;
  field: FieldDefinition;
  path: string;
  fileId: string | null;
  id: string;
  hint: string;
  errors?: string[];
  onChange: (fileId: string | null) => void;
}) {
  const chosen = context.pendingFiles[path];
  const inputRef = useRef<HTMLInputElement>(null);
  const maxBytes = field.type === "file" ? field.maxBytes : undefined;
  const tooLarge =
    chosen && maxBytes !== undefined && chosen.size > maxBytes ? [`The chosen file is ${formatBytes(chosen.size)}; this field takes at most ${formatBytes(maxBytes)}.`] : [];
  const shown = [...tooLarge, ...(errors ?? [])];
  return (
    <Shell id={id} label={field.name} required={field.required} hint={hint} errors={shown}>
      <div className="space-y-2">
        {fileId && !chosen && (
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-800">
            <span>
              Current file:{" "}
              <a
                href={`/api/projects/${encodeURIComponent(context.projectId)}/files/${encodeURIComponent(fileId)}`}
                className="font-mono text-indigo-700 underline underline-offset-2 hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                {fileId}
              </a>
            </span>
            <Button variant="secondary" size="sm" onClick={() => onChange(null)} aria-label={`Remove file of ${field.name}`}>
              Remove file
            </Button>
          </div>
        )}
        {chosen && (
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-800">
            <span>
              To upload: <span className="font-medium">{chosen.name}</span> ({formatBytes(chosen.size)})
            </span>
            <Button
              variant="secondary"
              size="sm"
              aria-label={`${fileId ? "Keep the current file" : "Upload no file"}, not ${chosen.name}`}
              onClick={() => {
                context.setPendingFile(path, null);
                if (inputRef.current) inputRef.current.value = "";
              }}
            >
              {fileId ? "Keep the current file" : "Upload no file"}
            </Button>
          </div>
        )}
        <input
          ref={inputRef}
          id={id}
          type="file"
          accept={field.type === "file" && field.accept?.length ? field.accept.join(",") : undefined}
          aria-describedby={describedBy(id, shown)}
          aria-invalid={shown.length > 0 || undefined}
          aria-required={field.required || undefined}
          onChange={(event) => context.setPendingFile(path, event.target.files?.[0] ?? null)}
          className={cn(
            "block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-50",
            "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
          )}
        />
      </div>
    </Shell>
  );
}

/** A component field (one group, or none) or a list of groups (repeatable component, dynamic zone). */
function GroupField({
  context,
  field,
  draft,
  path,
  hint,
  errors,
  onChange,
}: {
  context: FormContext;
  field: FieldDefinition;
  draft: Extract<DraftValue, { kind: "component" | "list" }>;
  path: string;
  hint: string;
  errors?: string[];
  onChange: (draft: DraftValue) => void;
}) {
  const id = controlId(context.formId, path);
  const allowed = field.type === "dynamic_zone" ? field.components : field.type === "component" ? [field.component] : [];
  const add = (component: string) => {
    const item = newGroupDraft(context.newKey(), component, context.lookup);
    onChange(draft.kind === "component" ? { kind: "component", item } : { kind: "list", items: [...draft.items, item] });
  };
  const countHint = "min" in field || "max" in field ? countText(field) : "";
  return (
    <fieldset id={id} tabIndex={-1} aria-describedby={describedBy(id, errors)} className="rounded-lg border border-slate-200 p-4 focus:outline-2 focus:outline-indigo-600">
      <legend className="px-1 text-sm font-medium text-slate-800">
        <span className="font-mono">{field.name}</span>
        <RequiredMark required={field.required} />
      </legend>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {hint}
        {countHint}
      </p>
      <FieldErrors id={id} errors={errors} />
      <div className="mt-3 space-y-3">
        {draft.kind === "component" && draft.item && (
          <GroupItem
            context={context}
            field={field}
            item={draft.item}
            path={path}
            title={field.type === "component" ? field.component : draft.item.component}
            onChange={(item) => onChange({ kind: "component", item })}
            onRemove={() => {
              onChange({ kind: "component", item: null });
              setTimeout(() => document.getElementById(id)?.focus());
            }}
          />
        )}
        {draft.kind === "list" &&
          draft.items.map((item, index) => (
            <GroupItem
              key={item.key}
              context={context}
              field={field}
              item={item}
              path={`${path}.${item.key}`}
              title={`${item.component || "unknown component"} ${index + 1} of ${draft.items.length}`}
              onChange={(changed) => onChange({ kind: "list", items: draft.items.map((candidate) => (candidate.key === item.key ? changed : candidate)) })}
              onRemove={() => {
                onChange({ kind: "list", items: draft.items.filter((candidate) => candidate.key !== item.key) });
                // The removed item held the focus: the field's group takes it, not the page's body.
                setTimeout(() => document.getElementById(id)?.focus());
              }}
              onMove={(step) => {
                const items = [...draft.items];
                const target = index + step;
                if (target < 0 || target >= items.length) return;
                [items[index], items[target]] = [items[target]!, items[index]!];
                onChange({ kind: "list", items });
              }}
              first={index === 0}
              last={index === draft.items.length - 1}
            />
          ))}
        {(draft.kind === "list" || !draft.item) && (
          <div className="flex flex-wrap gap-2">
            {allowed.map((component) => (
              <Button key={component} variant="secondary" size="sm" onClick={() => add(component)} aria-label={`Add ${component} to ${field.name}`}>
                + Add {component}
              </Button>
            ))}
          </div>
        )}
      </div>
    </fieldset>
  );
}

function countText(field: FieldDefinition): string {
  const min = "min" in field ? field.min : undefined;
  const max = "max" in field ? field.max : undefined;
  if (min !== undefined && max !== undefined) return ` ${min} to ${max} items.`;
  if (min !== undefined) return ` At least ${min} items.`;
  if (max !== undefined) return ` At most ${max} items.`;
  return "";
}

function GroupItem({
  context,
  field,
  item,
  path,
  title,
  onChange,
  onRemove,
  onMove,
  first,
  last,
}: {
  context: FormContext;
  field: FieldDefinition;
  item: GroupDraft;
  path: string;
  title: string;
  onChange: (item: GroupDraft) => void;
  onRemove: () => void;
  onMove?: (step: -1 | 1) => void;
  first?: boolean;
  last?: boolean;
}) {
  // A list item's path ends with its key; a lone component's item shares its field's path (and errors).
  const inList = Boolean(onMove);
  const id = inList ? controlId(context.formId, path) : `${controlId(context.formId, path)}-item`;
  const component = context.lookup(item.component);
  const errors = inList ? context.errors.get(path) : undefined;
  const name = `${field.name} ${title}`;
  const move = (step: -1 | 1, buttonId: string) => {
    if ((step === -1 && first) || (step === 1 && last)) return;
    onMove?.(step);
    // The item's node moves in the page, which can drop the focus: put it back on the same button.
    setTimeout(() => document.getElementById(buttonId)?.focus());
  };
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-describedby={errors?.length ? `${id}-error` : undefined}
      className="rounded-md border border-slate-200 bg-slate-50/60 p-3 focus:outline-2 focus:outline-indigo-600"
    >
      <legend className="sr-only">{name}</legend>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p className="font-mono text-sm font-medium text-slate-800" aria-hidden="true">
          {title}
        </p>
        <div className="flex gap-1.5">
          {onMove && (
            <>
              <Button id={`${id}-up`} variant="secondary" size="sm" onClick={() => move(-1, `${id}-up`)} aria-disabled={first || undefined} aria-label={`Move ${name} up`}>
                <span aria-hidden="true">↑</span> Up
              </Button>
              <Button id={`${id}-down`} variant="secondary" size="sm" onClick={() => move(1, `${id}-down`)} aria-disabled={last || undefined} aria-label={`Move ${name} down`}>
                <span aria-hidden="true">↓</span> Down
              </Button>
            </>
          )}
          <Button variant="secondary" size="sm" onClick={onRemove} aria-label={`Remove ${name}`}>
            Remove
          </Button>
        </div>
      </div>
      <FieldErrors id={id} errors={errors} />
      {component ? (
        <FieldList context={context} fields={component.fields} values={item.values} path={path} onChange={(values) => onChange({ ...item, values })} />
      ) : (
        <p className="text-sm text-slate-700">
          This item names the component <span className="font-mono">{JSON.stringify(item.component)}</span>, which this field does not allow; remove it or fix it as JSON.
        </p>
      )}
    </fieldset>
  );
}
