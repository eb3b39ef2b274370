"use client";

import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { FieldError } from "@/components/ui/form-error";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/components/ui/cn";

export type DatabaseKind = "local" | "postgres" | "mongodb";

export interface ConnectionTestOutcome {
  ok: boolean;
  message: string;
}

const CHOICES: Array<{ kind: DatabaseKind; title: string; description: string; placeholder?: string }> = [
  { kind: "local", title: "Built-in local database", description: "Stored with Flowpoint. Nothing to set up; good for trying things out." },
  {
    kind: "postgres",
    title: "PostgreSQL",
    description: "Your own PostgreSQL server, records kept as JSONB documents.",
    placeholder: "postgres://user:password@db.example.com:5432/app",
  },
  { kind: "mongodb", title: "MongoDB", description: "Your own MongoDB or Atlas cluster.", placeholder: "mongodb+srv://user:password@cluster0.example.mongodb.net/app" },
];

/**
 * The three database choices with a connection URL field and a "Test connection" button. Field
 * names are `database.kind` and `database.url`. The URL is never pre-filled: a stored one is only
 * ever shown masked, by the caller.
 */
export function DatabaseFields({
  defaultKind = "local",
  urlError,
  kindError,
  testConnection,
  canTestLocal = true,
  disabled,
}: {
  defaultKind?: DatabaseKind;
  urlError?: string;
  kindError?: string;
  testConnection: (input: { kind: DatabaseKind; url?: string }) => Promise<ConnectionTestOutcome>;
  /** False before the project exists: its built-in database is created with it. */
  canTestLocal?: boolean;
  disabled?: boolean;
}) {
  const [kind, setKind] = useState<DatabaseKind>(defaultKind);
  const [url, setUrl] = useState("");
  const [outcome, setOutcome] = useState<ConnectionTestOutcome>();
  const [testing, startTest] = useTransition();
  const id = useId();
  const choice = CHOICES.find((candidate) => candidate.kind === kind);

  function runTest() {
    setOutcome(undefined);
    startTest(async () => {
      try {
        setOutcome(await testConnection(kind === "local" ? { kind } : { kind, url }));
      } catch {
        setOutcome({ ok: false, message: "The test could not run. Please try again." });
      }
    });
  }

  return (
    <fieldset className="space-y-4" disabled={disabled}>
      <legend className="text-sm font-medium text-slate-700">Database</legend>
      <div className="grid gap-2 sm:grid-cols-3" role="radiogroup" aria-label="Database">
        {CHOICES.map((candidate) => (
          <label
            key={candidate.kind}
            className={cn(
              "relative flex cursor-pointer flex-col rounded-lg border p-3 text-sm transition has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600",
              kind === candidate.kind ? "border-indigo-500 bg-indigo-50/60 ring-1 ring-indigo-500" : "border-slate-200 hover:border-slate-300",
            )}
          >
            <input
              type="radio"
              name="database.kind"
              value={candidate.kind}
              checked={kind === candidate.kind}
              onChange={() => {
                setKind(candidate.kind);
                setOutcome(undefined);
              }}
              className="sr-only"
            />
            <span className="font-medium text-slate-900">{candidate.title}</span>
            <span className="mt-1 text-xs text-slate-600">{candidate.description}</span>
          </label>
        ))}
      </div>
      <FieldError id={`${id}-kind-error`} message={kindError} />
      {kind !== "local" && (
        <div>
          <Label htmlFor={`${id}-url`}>Connection URL</Label>
          <Input
            id={`${id}-url`}
            name="database.url"
            className="mt-1 font-mono"
            placeholder={choice?.placeholder}
            autoComplete="off"
            spellCheck={false}
            required
            value={url}
            onChange={(event) => {
              setUrl(event.target.value);
              setOutcome(undefined);
            }}
            invalid={Boolean(urlError)}
            aria-describedby={`${id}-url-hint${urlError ? ` ${id}-url-error` : ""}`}
          />
          <p id={`${id}-url-hint`} className="mt-1 text-xs text-slate-500">
            {kind === "postgres" ? "Starts with postgres:// or postgresql://." : "Starts with mongodb:// or mongodb+srv://."} Stored encrypted; afterwards only a masked form is
            shown.
          </p>
          <FieldError id={`${id}-url-error`} message={urlError} />
        </div>
      )}
      {kind === "local" && !canTestLocal ? (
        <p className="text-sm text-slate-500">Nothing to configure: the built-in database is created with the project.</p>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" size="sm" onClick={runTest} disabled={testing || (kind !== "local" && url.trim() === "")}>
            {testing && <Spinner />}
            Test connection
          </Button>
          {outcome && (
            <p role="status" className={cn("flex items-center gap-1.5 text-sm", outcome.ok ? "text-emerald-700" : "text-rose-700")}>
              <span aria-hidden="true">{outcome.ok ? "✓" : "✕"}</span>
              {outcome.message}
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
