"use client";

import { useLayoutEffect, useMemo, useRef, useState, type ChangeEvent, type InputHTMLAttributes, type KeyboardEvent, type ReactNode, type TextareaHTMLAttributes } from "react";
import type { TemplateContext } from "@/lib/flow/template-context/build-template-context";
import { findUnresolvedPlaceholders, type UnresolvedPlaceholder } from "@/lib/flow/template-context/find-unresolved-placeholders";
import { listPlaceholderSuggestions, type PlaceholderSuggestion } from "@/lib/flow/template-context/list-placeholder-suggestions";
import { findPlaceholderAtCaret, insertPlaceholderPath, type PlaceholderAtCaret } from "@/lib/flow/template-context/placeholder-at-caret";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { Textarea } from "./form-controls";
import { useTemplateContext } from "./template-scope";

/**
 * Template inputs of the flow editors: typing `{{` (or Ctrl+Space inside a placeholder) opens a
 * list of what the placeholder can read here (lib/flow/template-context), filtered by what is
 * typed; Up/Down move, Enter or Tab insert, Escape closes. One-line fields follow the ARIA combobox
 * pattern (the field keeps focus and points at the active option with aria-activedescendant). Placeholders
 * that cannot resolve are listed under the field as you type, each underlined. Outside a flow
 * editor's steps and response (no template context) the fields are plain inputs.
 */

interface Menu {
  at: PlaceholderAtCaret;
  items: PlaceholderSuggestion[];
  active: number;
}

interface TemplateFieldProps {
  id: string;
  value: string;
  /** Called with the new text (typed or a suggestion inserted). */
  onValueChange: (value: string) => void;
  invalid?: boolean;
  className?: string;
  placeholder?: string;
  "aria-describedby"?: string;
}

function useTemplateAutocomplete({ id, value, onValueChange, multiline }: Pick<TemplateFieldProps, "id" | "value" | "onValueChange"> & { multiline: boolean }) {
  const context = useTemplateContext();
  const listId = `${id}-suggestions`;
  const [menu, setMenu] = useState<Menu | null>(null);
  // The placeholder whose list Escape closed: typing in it does not reopen it, Ctrl+Space does.
  const dismissed = useRef<number | null>(null);
  const pendingCaret = useRef<number | null>(null);

  const unresolved = useMemo(() => (context === null ? [] : findUnresolvedPlaceholders(value, context)), [context, value]);

  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    const element = document.getElementById(id);
    if (caret === null || !(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) return;
    pendingCaret.current = null;
    element.setSelectionRange(caret, caret);
  }, [value, id]);

  useLayoutEffect(() => {
    if (menu === null) return;
    document.getElementById(`${listId}-${menu.active}`)?.scrollIntoView?.({ block: "nearest" });
  }, [menu, listId]);

  function menuAt(text: string, caret: number, force: boolean, context: TemplateContext): Menu | null {
    const at = findPlaceholderAtCaret(text, caret);
    if (at === null) return null;
    if (!force && dismissed.current === at.innerStart) return null;
    const items = listPlaceholderSuggestions(context, at.typed);
    return items.length === 0 ? null : { at, items, active: 0 };
  }

  function refresh(text: string, caret: number | null, force = false) {
    if (force) dismissed.current = null;
    setMenu(context === null || caret === null ? null : menuAt(text, caret, force, context));
  }

  function choose(item: PlaceholderSuggestion) {
    if (menu === null || context === null) return;
    const next = insertPlaceholderPath(value, menu.at, item.path, item.continues);
    pendingCaret.current = next.caret;
    onValueChange(next.text);
    setMenu(item.continues ? menuAt(next.text, next.caret, true, context) : null);
  }

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    onValueChange(event.target.value);
    refresh(event.target.value, event.target.selectionStart);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const target = event.currentTarget;
    if (event.key === " " && event.ctrlKey) {
      event.preventDefault();
      refresh(target.value, target.selectionStart, true);
      return;
    }
    if (menu === null) return;
    const count = menu.items.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setMenu({ ...menu, active: (menu.active + (event.key === "ArrowDown" ? 1 : count - 1)) % count });
    } else if (event.key === "Enter" || event.key === "Tab") {
      const item = menu.items[menu.active];
      if (item === undefined) return;
      event.preventDefault();
      choose(item);
    } else if (event.key === "Escape") {
      // Closing the list must not also close a dialog or reset a form around the field.
      event.preventDefault();
      event.stopPropagation();
      dismissed.current = menu.at.innerStart;
      setMenu(null);
    }
  }

  function onKeyUp(event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) {
    // The caret moved without typing: follow it, closing the list when it leaves the placeholder.
    if (menu !== null && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) refresh(event.currentTarget.value, event.currentTarget.selectionStart);
  }

  const comboboxProps =
    context === null
      ? {}
      : {
          // A textarea may not take the combobox role (ARIA in HTML allows it none) and a textbox has
          // no aria-expanded: it keeps its own role and points at the list and its active option,
          // as multi-line autocompletes do; the status line says when the list opens.
          ...(multiline ? {} : { role: "combobox" as const, "aria-expanded": menu !== null }),
          "aria-autocomplete": "list" as const,
          "aria-controls": listId,
          "aria-activedescendant": menu !== null ? `${listId}-${menu.active}` : undefined,
          onKeyDown,
          onKeyUp,
          onBlur: () => setMenu(null),
          onClick: () => setMenu(null),
        };

  const listbox = (
    <>
      {/* Always present (hidden while closed), so the field's aria-controls names an element. */}
      {context !== null && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Placeholder suggestions"
          hidden={menu === null}
          className="absolute z-20 mt-1 max-h-64 w-full min-w-64 overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg"
        >
          {menu?.items.map((item, index) => (
            <li
              key={item.path}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === menu.active}
              // Keeps focus in the field, as the combobox pattern wants.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(item)}
              className={cn(
                "flex cursor-pointer items-baseline justify-between gap-3 px-3 py-1.5",
                index === menu.active ? "bg-indigo-600 text-white outline-2 -outline-offset-2 outline-indigo-800" : "text-slate-900 hover:bg-slate-100",
              )}
            >
              <span className="font-mono text-[13px]">
                {item.label}
                {item.continues && <span aria-hidden="true">.</span>}
              </span>
              <span className={cn("truncate text-xs", index === menu.active ? "text-indigo-50" : "text-slate-600")}>{item.hint}</span>
            </li>
          ))}
        </ul>
      )}
      {context !== null && (
        <p role="status" className="sr-only">
          {menu !== null ? `${menu.items.length} ${menu.items.length === 1 ? "suggestion" : "suggestions"}; up and down to choose, Enter to insert, Escape to close.` : ""}
        </p>
      )}
    </>
  );

  return { comboboxProps, listbox, unresolved, onChange, hasContext: context !== null };
}

/**
 * The placeholders of a field that cannot resolve, each underlined, under the field. The field
 * names it in aria-describedby; it is not a live region, which would speak at every keystroke.
 */
function UnresolvedList({ id, unresolved }: { id: string; unresolved: readonly UnresolvedPlaceholder[] }) {
  return (
    <div id={id} className={unresolved.length > 0 ? "mt-1 rounded-md border-l-4 border-amber-500 bg-amber-50 px-2 py-1 text-xs text-amber-950" : undefined}>
      {unresolved.length > 0 && (
        <>
          <p className="font-medium">{unresolved.length === 1 ? "This placeholder will not resolve:" : `${unresolved.length} placeholders will not resolve:`}</p>
          <ul className="mt-0.5 space-y-0.5">
            {unresolved.map((found) => (
              <li key={`${found.start}-${found.raw}`}>
                <code className="font-mono break-all underline decoration-amber-600 decoration-wavy decoration-2 underline-offset-2">{found.raw}</code> {found.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function joinIds(...ids: Array<string | undefined | false>): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

/** The props a template field hands its control: the text, the autocomplete's wiring and the descriptions. */
type ControlProps = ReturnType<typeof useTemplateAutocomplete>["comboboxProps"] & {
  id: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  invalid?: boolean;
  className: string;
  "aria-describedby"?: string;
};

/** A template field around its control (an input or a textarea): the suggestion list and the unresolved placeholders under it. */
function TemplateField({
  id,
  value,
  onValueChange,
  invalid,
  className,
  "aria-describedby": describedBy,
  multiline,
  control,
}: Omit<TemplateFieldProps, "placeholder"> & { multiline: boolean; control: (props: ControlProps) => ReactNode }) {
  const { comboboxProps, listbox, unresolved, onChange, hasContext } = useTemplateAutocomplete({ id, value, onValueChange, multiline });
  const warningId = `${id}-placeholders`;
  return (
    <div className="relative">
      {control({
        id,
        value,
        onChange,
        invalid,
        className: cn(className, unresolved.length > 0 && !invalid && "ring-1 ring-amber-500"),
        "aria-describedby": joinIds(describedBy, hasContext && unresolved.length > 0 && warningId),
        ...comboboxProps,
      })}
      {listbox}
      {hasContext && <UnresolvedList id={warningId} unresolved={unresolved} />}
    </div>
  );
}

type InputRest = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "id" | "role">;

/** A one-line template field (URL, header value, record value, condition operand, email subject). */
export function TemplateInput({ id, value, onValueChange, invalid, className, placeholder, "aria-describedby": describedBy, ...rest }: TemplateFieldProps & InputRest) {
  return (
    <TemplateField
      {...{ id, value, onValueChange, invalid, className, "aria-describedby": describedBy }}
      multiline={false}
      control={(control) => <Input {...rest} placeholder={placeholder} autoComplete="off" {...control} />}
    />
  );
}

type TextareaRest = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange" | "id" | "role">;

/** A multi-line template field (filters, bodies). */
export function TemplateTextarea({
  id,
  value,
  onValueChange,
  invalid,
  className,
  placeholder,
  mono,
  "aria-describedby": describedBy,
  ...rest
}: TemplateFieldProps & TextareaRest & { mono?: boolean }) {
  return (
    <TemplateField
      {...{ id, value, onValueChange, invalid, className, "aria-describedby": describedBy }}
      multiline
      control={(control) => <Textarea {...rest} placeholder={placeholder} mono={mono} {...control} />}
    />
  );
}
