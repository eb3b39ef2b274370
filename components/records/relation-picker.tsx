"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/http/action-result";
import type { RecordChoice } from "@/lib/records-service/find-record-choices";

export type SearchRecordChoices = (schema: string, search: string) => Promise<ActionResult<RecordChoice[]>>;

/**
 * A relation field's control: an ARIA 1.2 combobox (list autocomplete) that searches the related
 * schema's records as you type — arrows move through the matches, Enter picks one, Escape closes
 * the list — and the chosen records as chips, each with its own remove button. Relations to one
 * record hold at most one chip; choosing another replaces it. An exact record id typed in finds
 * that record, so ids copied from elsewhere still work.
 */
export function RelationPicker({
  id,
  label,
  target,
  many,
  ids,
  choices,
  onChange,
  search,
  describedBy,
  invalid,
  required,
}: {
  /** The combobox input's id (the field's label points at it). */
  id: string;
  /** The field's name, for the remove buttons' names. */
  label: string;
  target: string;
  many: boolean;
  ids: string[];
  /** What the form knows of related records (loaded with the page, or picked since). */
  choices: ReadonlyMap<string, RecordChoice>;
  onChange: (ids: string[], picked?: RecordChoice) => void;
  search: SearchRecordChoices;
  describedBy?: string;
  invalid?: boolean;
  required?: boolean;
}) {
  const listId = `${id}-options`;
  const statusId = `${id}-status`;
  const optionPrefix = useId();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<RecordChoice[]>([]);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState("");
  const latest = useRef(0);

  useEffect(() => {
    if (!open) return;
    const request = ++latest.current;
    const timer = setTimeout(async () => {
      setStatus("Searching…");
      const result = await search(target, query);
      if (request !== latest.current) return;
      if (!result.ok) {
        setOptions([]);
        setStatus(`The search failed: ${result.error}`);
        return;
      }
      setOptions(result.data);
      setActive(result.data.length > 0 ? 0 : -1);
      setStatus(result.data.length === 0 ? "No records match." : `${result.data.length} record${result.data.length === 1 ? "" : "s"} found; arrows to move, Enter to choose.`);
    }, 200);
    return () => clearTimeout(timer);
  }, [open, query, search, target]);

  function pick(choice: RecordChoice) {
    const next = many ? (ids.includes(choice.id) ? ids : [...ids, choice.id]) : [choice.id];
    onChange(next, choice);
    setQuery("");
    setOpen(false);
    setStatus(`${choice.label} chosen.`);
  }

  function remove(removed: string) {
    onChange(ids.filter((candidate) => candidate !== removed));
    setStatus(`${choices.get(removed)?.label ?? removed} removed.`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return setOpen(true);
      if (options.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + options.length) % options.length);
    } else if (event.key === "Enter") {
      // Enter picks; it never submits the record form from here.
      event.preventDefault();
      const choice = open ? options[active] : undefined;
      if (choice) pick(choice);
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
      } else if (query) {
        event.preventDefault();
        setQuery("");
      }
    }
  }

  const activeOption = open && active >= 0 && options[active] ? `${optionPrefix}-${active}` : undefined;
  return (
    <div>
      {ids.length > 0 && (
        <ul className="mb-2 flex flex-wrap gap-2" aria-label={`Chosen ${label} records`}>
          {ids.map((chosen) => {
            const choice = choices.get(chosen);
            return (
              <li key={chosen} className="inline-flex max-w-full items-center gap-1 rounded-full border border-indigo-200 bg-indigo-50 py-0.5 pr-1 pl-3 text-sm text-indigo-900">
                <span className="truncate">{choice?.label ?? chosen}</span>
                {choice && choice.label !== chosen && <span className="font-mono text-xs text-indigo-800">{chosen}</span>}
                <button
                  type="button"
                  onClick={() => remove(chosen)}
                  aria-label={`Remove ${choice?.label ?? chosen} from ${label}`}
                  className="ml-1 inline-flex h-6 w-6 items-center justify-center rounded-full text-indigo-800 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="relative">
        <Input
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeOption}
          aria-describedby={[statusId, describedBy].filter(Boolean).join(" ")}
          aria-required={required || undefined}
          invalid={invalid}
          autoComplete="off"
          placeholder={many || ids.length === 0 ? `Search ${target}…` : `Search ${target} to replace…`}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={`${target} records`}
          hidden={!open || options.length === 0}
          className="absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {options.map((choice, index) => (
            <li
              key={choice.id}
              id={`${optionPrefix}-${index}`}
              role="option"
              aria-selected={index === active}
              // mousedown, not click: the input's blur would close the list first.
              onMouseDown={(event) => {
                event.preventDefault();
                pick(choice);
              }}
              onMouseMove={() => setActive(index)}
              className={cn("cursor-pointer px-3 py-2 text-sm", index === active ? "bg-indigo-600 text-white" : "text-slate-900")}
            >
              <span className="block truncate font-medium">{choice.label}</span>
              <span className={cn("block truncate text-xs", index === active ? "text-indigo-50" : "text-slate-600")}>
                {[choice.detail, choice.id].filter(Boolean).join(" · ")}
                {ids.includes(choice.id) ? " · already chosen" : ""}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <p id={statusId} aria-live="polite" className="sr-only">
        {status}
      </p>
    </div>
  );
}
