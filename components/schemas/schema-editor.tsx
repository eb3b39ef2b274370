"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ErrorIssue } from "@/lib/errors";
import { FIELD_TYPES, SCHEMA_KINDS, type FieldType, type SchemaKind } from "@/lib/schemas/schema-definition";
import type { SchemaChangeEffects } from "@/lib/schemas/describe-schema-change";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { ChoiceCards } from "@/components/ui/choice-cards";
import { FormError, Notice } from "@/components/ui/form-error";
import { Input, Select } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import type { ActionResult } from "@/lib/http/action-result";
import { ArrowDownIcon, ArrowUpIcon, Checkbox, FieldShell, IconButton, TrashIcon } from "@/components/endpoints/form-controls";
import { capitalize, issuesUnder, messageAt } from "@/components/endpoints/issues";
import { newFieldDraft, toFieldDefinition, type FieldDraft } from "./field-draft";
import { FieldOptions, type SchemaSummary } from "./field-options";
import { FIELD_TYPE_LABELS, SCHEMA_KIND_LABELS } from "./field-types";

export interface SchemaEditorActions {
  create: (definition: unknown) => Promise<ActionResult<{ name: string; version: number }>>;
  update: (definition: unknown, options: { dryRun: boolean; expectedVersion: number }) => Promise<ActionResult<{ version: number; effects: SchemaChangeEffects }>>;
}

interface PendingConfirmation {
  notes: string[];
  renamed: { from: string; to: string }[];
}

/** Field issues are keyed by the field's stable key (`@field-3.min`), so they stay with the field when it moves. */
const fieldPath = (key: string) => `@${key}`;

/**
 * Creates a schema or edits its fields: add, rename, reorder, remove, with the options of each
 * type. Saving an edit first asks the service what it would do (dry run); changes that hide or
 * reinterpret stored data are shown and must be confirmed before they are saved.
 */
export function SchemaEditor({
  projectId,
  initial,
  initialFields,
  schemas,
  actions,
}: {
  projectId: string;
  /** The saved schema, or null for a new one. */
  initial: { name: string; kind: SchemaKind; version: number } | null;
  /** The fields as drafts, made on the server (toFieldDraft, newFieldDraft) so their keys match in the browser. */
  initialFields: FieldDraft[];
  /** The project's other schemas. */
  schemas: readonly SchemaSummary[];
  actions: SchemaEditorActions;
}) {
  const router = useRouter();
  const creating = initial === null;
  const [name, setName] = useState(initial?.name ?? "");
  const [kind, setKind] = useState<SchemaKind>(initial?.kind ?? "collection");
  const [fields, setFields] = useState<FieldDraft[]>(initialFields);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set(fields.filter((field) => field.savedName !== null).map((field) => field.key)));
  const [version, setVersion] = useState(initial?.version ?? 0);
  const [issues, setIssues] = useState<ErrorIssue[]>([]);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string[] | null>(null);
  const [confirmation, setConfirmation] = useState<PendingConfirmation | null>(null);
  const [pending, startTransition] = useTransition();

  function edited() {
    setSaved(null);
    setConfirmation(null);
  }

  function update(key: string, patch: Partial<FieldDraft>) {
    edited();
    setFields((current) => current.map((field) => (field.key === key ? { ...field, ...patch } : field)));
  }

  function move(index: number, by: -1 | 1) {
    edited();
    setFields((current) => {
      const next = [...current];
      const [field] = next.splice(index, 1);
      if (field) next.splice(index + by, 0, field);
      return next;
    });
  }

  function remove(key: string) {
    edited();
    setFields((current) => current.filter((field) => field.key !== key));
    setIssues((current) => current.filter((issue) => !issue.path.startsWith(`${fieldPath(key)}.`)));
  }

  function add() {
    edited();
    setFields((current) => [...current, newFieldDraft()]);
  }

  /** The definition to send, or null after showing the problems found in the browser. */
  function buildDefinition(): { definition: { name: string; kind: SchemaKind; fields: Record<string, unknown>[] }; keys: string[] } | null {
    const problems: ErrorIssue[] = [];
    const built: Record<string, unknown>[] = [];
    for (const field of fields) {
      const result = toFieldDefinition(field, kind);
      if (result.ok) built.push(result.field);
      else problems.push(...result.issues.map((issue) => ({ path: `${fieldPath(field.key)}.${issue.path}`, message: issue.message })));
    }
    if (problems.length > 0) {
      setIssues(problems);
      setError("Some fields need a fix before saving.");
      return null;
    }
    return { definition: { name: name.trim(), kind, fields: built }, keys: fields.map((field) => field.key) };
  }

  /** Server issues `fields.2.min` → `@<key of the field sent at 2>.min`. */
  function showFailure(result: Extract<ActionResult<unknown>, { ok: false }>, keys: string[]) {
    setError(result.error);
    setIssues(
      result.issues.map((issue) => {
        const match = /^fields\.(\d+)(?:\.(.*))?$/.exec(issue.path);
        const key = match ? keys[Number(match[1])] : undefined;
        return key ? { path: [fieldPath(key), match?.[2]].filter(Boolean).join("."), message: issue.message } : issue;
      }),
    );
  }

  function save(confirmed: boolean) {
    const built = buildDefinition();
    if (!built) return;
    setError(undefined);
    setIssues([]);
    startTransition(async () => {
      if (creating) {
        const result = await actions.create(built.definition);
        if (!result.ok) return showFailure(result, built.keys);
        router.push(`/projects/${projectId}/schemas/${result.data.name}`);
        return;
      }
      if (!confirmed) {
        const preview = await actions.update(built.definition, { dryRun: true, expectedVersion: version });
        if (!preview.ok) return showFailure(preview, built.keys);
        if (preview.data.effects.requiresConfirmation) {
          const renamed = fields.flatMap((field) => (field.savedName !== null && field.savedName !== field.name.trim() ? [{ from: field.savedName, to: field.name.trim() }] : []));
          setConfirmation({ notes: preview.data.effects.notes, renamed });
          return;
        }
      }
      const result = await actions.update(built.definition, { dryRun: false, expectedVersion: version });
      setConfirmation(null);
      if (!result.ok) return showFailure(result, built.keys);
      setVersion(result.data.version);
      setFields((current) => current.map((field) => ({ ...field, savedName: field.name.trim() })));
      setSaved(result.data.effects.notes);
    });
  }

  const topError = (path: string) => messageAt(issues, path);
  const placedTop = new Set(["name", "kind"]);
  const unplaced = issues
    .filter((issue) => !issue.path.startsWith("@") && !placedTop.has(issue.path.split(".")[0] ?? ""))
    .map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : capitalize(issue.message)));
  const recordKinds = kind !== "component";

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Schema"
          description={
            creating ? "The name is how the API, relations and flows refer to it; it cannot change later." : "The name and kind are fixed: records are stored under the name."
          }
        />
        <CardBody className="space-y-5">
          <FieldShell
            id="schema-name"
            label="Schema name"
            error={topError("name")}
            hint={creating ? "Lowercase letters, digits and underscores, starting with a letter: tickets, blog_posts." : undefined}
          >
            <Input
              id="schema-name"
              value={name}
              onChange={(event) => (edited(), setName(event.target.value))}
              disabled={!creating}
              placeholder="tickets"
              className="max-w-sm font-mono"
              autoComplete="off"
              invalid={Boolean(topError("name"))}
            />
          </FieldShell>
          <ChoiceCards
            legend="Kind"
            legendVisible
            name="schema-kind"
            choices={SCHEMA_KINDS}
            labels={SCHEMA_KIND_LABELS}
            value={kind}
            onChange={(option) => (edited(), setKind(option))}
            disabled={!creating}
            error={topError("kind")}
            className="sm:grid-cols-3"
          />
        </CardBody>
      </Card>

      <Card aria-labelledby="fields-heading">
        <CardHeader
          title={<span id="fields-heading">Fields</span>}
          description={recordKinds ? "Every record also has id, createdAt and updatedAt, written by the server." : "The fields of each item wherever this component is used."}
          actions={<Badge>{fields.length === 1 ? "1 field" : `${fields.length} fields`}</Badge>}
        />
        <CardBody className="space-y-3">
          {kind === "auth" && (
            <div className="rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-3 text-sm text-slate-600">
              Built in: <code className="font-mono text-xs">email</code> (required, unique), <code className="font-mono text-xs">emailVerified</code> and the password, which is
              stored hashed and never answered.
            </div>
          )}
          {fields.length === 0 && <p className="py-4 text-center text-sm text-slate-500">No fields yet. Add the first one below.</p>}
          {fields.map((field, index) => {
            const fieldIssues = issuesUnder(issues, fieldPath(field.key));
            const open = !collapsed.has(field.key) || fieldIssues.some((issue) => !["name", "type", ""].includes(issue.path.split(".")[0] ?? ""));
            const label = `Field ${index + 1}`;
            const renamed = field.savedName !== null && field.savedName !== field.name.trim();
            return (
              <fieldset key={field.key} aria-label={label} className="rounded-lg border border-slate-200 bg-white">
                <div className="grid items-start gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_13rem_auto]">
                  <FieldShell
                    id={`${field.key}-name`}
                    label="Name"
                    error={
                      messageAt(fieldIssues, "name") ??
                      (fieldIssues.some((issue) => issue.path === "") ? capitalize(fieldIssues.find((issue) => issue.path === "")!.message) : undefined)
                    }
                    hint={renamed ? `Renamed from ${field.savedName}` : undefined}
                  >
                    <Input
                      id={`${field.key}-name`}
                      value={field.name}
                      onChange={(event) => update(field.key, { name: event.target.value })}
                      placeholder="e.g. dueDate"
                      className="font-mono"
                      autoComplete="off"
                      invalid={Boolean(messageAt(fieldIssues, "name"))}
                    />
                  </FieldShell>
                  <FieldShell id={`${field.key}-type`} label="Type" error={messageAt(fieldIssues, "type")}>
                    <Select
                      id={`${field.key}-type`}
                      value={field.type}
                      onChange={(event) => update(field.key, { type: event.target.value as FieldType, unique: false, indexed: false, defaultText: "", min: "", max: "" })}
                    >
                      {FIELD_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {FIELD_TYPE_LABELS[type]}
                        </option>
                      ))}
                    </Select>
                  </FieldShell>
                  <div className="flex items-center gap-1 sm:pt-6">
                    <IconButton label="Move up" onClick={() => move(index, -1)} disabled={index === 0}>
                      <ArrowUpIcon />
                    </IconButton>
                    <IconButton label="Move down" onClick={() => move(index, 1)} disabled={index === fields.length - 1}>
                      <ArrowDownIcon />
                    </IconButton>
                    <IconButton label="Remove field" tone="danger" onClick={() => remove(field.key)}>
                      <TrashIcon />
                    </IconButton>
                  </div>
                </div>
                <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 bg-slate-50/60 px-4 py-2">
                  <Checkbox id={`${field.key}-required`} label="Required" checked={field.required} onChange={(required) => update(field.key, { required })} />
                  <button
                    type="button"
                    aria-expanded={open}
                    aria-controls={`${field.key}-options`}
                    onClick={() =>
                      setCollapsed((current) => {
                        const next = new Set(current);
                        if (next.has(field.key)) next.delete(field.key);
                        else next.add(field.key);
                        return next;
                      })
                    }
                    className="text-sm font-medium text-indigo-600 hover:text-indigo-500"
                  >
                    {open ? "Hide options" : `Options${summarize(field)}`}
                  </button>
                </div>
                {open && (
                  <div id={`${field.key}-options`} className="border-t border-slate-100 p-4">
                    <FieldOptions
                      draft={field}
                      kind={kind}
                      schemas={schemas.filter((schema) => schema.name !== name)}
                      issues={fieldIssues}
                      onChange={(patch) => update(field.key, patch)}
                    />
                  </div>
                )}
              </fieldset>
            );
          })}
          <Button variant="secondary" size="sm" onClick={add}>
            + Add field
          </Button>
        </CardBody>
        <CardFooter className="flex-col items-stretch gap-3">
          <FormError message={error} issues={unplaced} />
          {saved && (
            <Notice>
              <p className="font-medium">Schema saved.</p>
              {saved.length > 0 && (
                <ul className="mt-1 list-disc pl-5">
                  {saved.map((note) => (
                    <li key={note}>{note}</li>
                  ))}
                </ul>
              )}
            </Notice>
          )}
          {confirmation && (
            <div role="alertdialog" aria-labelledby="confirm-heading" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
              <h3 id="confirm-heading" className="font-semibold">
                This change affects data already stored
              </h3>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                {confirmation.renamed.map((rename) => (
                  <li key={`${rename.from}-${rename.to}`}>
                    Renaming is saved as removing “{rename.from}” and adding “{rename.to}”: values stored under “{rename.from}” stay in the records but are not moved.
                  </li>
                ))}
                {confirmation.notes.map((note) => (
                  <li key={note}>{note}</li>
                ))}
              </ul>
              <div className="mt-3 flex justify-end gap-2">
                <Button variant="secondary" size="sm" onClick={() => setConfirmation(null)} disabled={pending}>
                  Keep editing
                </Button>
                <Button size="sm" onClick={() => save(true)} busy={pending}>
                  {pending && <Spinner />}
                  Confirm and save
                </Button>
              </div>
            </div>
          )}
          {!confirmation && (
            <div className="flex justify-end">
              <Button onClick={() => save(false)} busy={pending}>
                {pending && <Spinner />}
                {creating ? "Create schema" : "Save changes"}
              </Button>
            </div>
          )}
        </CardFooter>
      </Card>
    </div>
  );
}

/** " · required, unique, indexed, 2 values": what a collapsed field has set. */
function summarize(field: FieldDraft): string {
  const parts: string[] = [];
  if (field.unique) parts.push("unique");
  if (field.indexed) parts.push("indexed");
  if (field.type === "enum") {
    const count = field.values.split("\n").filter((value) => value.trim()).length;
    parts.push(count === 1 ? "1 value" : `${count} values`);
  }
  if (field.type === "relation" && field.target) parts.push(`→ ${field.target}${field.many ? " (many)" : ""}`);
  if (field.type === "component" && field.component) parts.push(`${field.component}${field.repeatable ? " (repeatable)" : ""}`);
  if (field.type === "dynamic_zone" && field.components.length) parts.push(field.components.join(", "));
  if (field.defaultText) parts.push("default");
  if (field.min || field.max) parts.push("bounds");
  if (field.pattern) parts.push("pattern");
  return parts.length ? ` · ${parts.join(", ")}` : "";
}
