import type { ReactNode, TextareaHTMLAttributes } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { FieldShell } from "@/components/ui/field";
import { FieldError } from "@/components/ui/form-error";

// FieldShell lives with the other field pieces in components/ui; the schema editor still imports it from here.
export { describedBy, FieldShell } from "@/components/ui/field";

/**
 * Form controls the editors need beyond components/ui: a textarea styled like Input, the allowed
 * origins field, a checkbox with its label, icon buttons, and the pieces of editable row lists.
 */

const TEXTAREA =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 " +
  "focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/20 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500";

export function Textarea({ className, invalid, mono, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean; mono?: boolean }) {
  return (
    <textarea
      aria-invalid={invalid || undefined}
      spellCheck={mono ? false : undefined}
      className={cn(TEXTAREA, mono && "font-mono text-[13px] leading-5", invalid ? "border-rose-400" : "border-slate-300", className)}
      {...props}
    />
  );
}

/** The browser origins allowed to call an endpoint or post to a form, one per line. */
export function AllowedOriginsField({ id, value, onChange, error, hint }: { id: string; value: string; onChange: (value: string) => void; error?: string; hint: ReactNode }) {
  return (
    <FieldShell id={id} label="Allowed browser origins" error={error} hint={hint}>
      <Textarea id={id} rows={3} mono value={value} onChange={(event) => onChange(event.target.value)} placeholder="https://shop.example" invalid={Boolean(error)} />
    </FieldShell>
  );
}

export function Checkbox({
  id,
  label,
  checked,
  onChange,
  hint,
  disabled,
  className,
}: {
  id: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <label htmlFor={id} className={cn("flex cursor-pointer items-start gap-2 text-sm text-slate-700", disabled && "cursor-not-allowed opacity-60", className)}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-indigo-600"
      />
      <span>
        <span className="font-medium">{label}</span>
        {hint && <span className="block text-xs text-slate-500">{hint}</span>}
      </span>
    </label>
  );
}

/** A small square icon button (move up/down, remove) with a name for screen readers. */
export function IconButton({
  label,
  onClick,
  disabled,
  children,
  tone = "neutral",
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
  tone?: "neutral" | "danger";
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
      className={cn(
        "grid size-8 shrink-0 place-items-center rounded-md border border-slate-200 bg-white text-slate-500 shadow-sm transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-40",
        tone === "danger" ? "hover:border-rose-200 hover:bg-rose-50 hover:text-rose-600" : "hover:bg-slate-50 hover:text-slate-900",
      )}
    >
      {children}
    </button>
  );
}

/** The remove button of one row in a list the owner edits (headers, checks, input fields). */
export function RemoveRowButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <IconButton label={label} tone="danger" onClick={onClick}>
      <TrashIcon />
    </IconButton>
  );
}

/** A message as the start of a sentence: the server's issues begin in lower case. */
export function capitalize(message: string): string {
  return message.length > 0 ? message[0]!.toUpperCase() + message.slice(1) : message;
}

/** Under a list of rows: the error about the list as a whole (at `<id>-error`) and the button that adds a row. */
export function RowListFooter({ id, error, addLabel, onAdd, disabled }: { id: string; error?: string; addLabel: string; onAdd: () => void; disabled?: boolean }) {
  return (
    <>
      <FieldError id={`${id}-error`} message={error ? capitalize(error) : undefined} />
      <Button variant="ghost" size="sm" className="mt-1 -ml-2 text-indigo-600" disabled={disabled} onClick={onAdd}>
        + {addLabel}
      </Button>
    </>
  );
}

const ARROW_UP_ICON_PATH =
  "M10 17a.75.75 0 0 1-.75-.75V5.612L5.29 9.77a.75.75 0 0 1-1.08-1.04l5.25-5.5a.75.75 0 0 1 1.08 0l5.25 5.5a.75.75 0 1 1-1.08 1.04l-3.96-4.158V16.25A.75.75 0 0 1 10 17Z";
const ARROW_DOWN_ICON_PATH =
  "M10 3a.75.75 0 0 1 .75.75v10.638l3.96-4.158a.75.75 0 1 1 1.08 1.04l-5.25 5.5a.75.75 0 0 1-1.08 0l-5.25-5.5a.75.75 0 1 1 1.08-1.04l3.96 4.158V3.75A.75.75 0 0 1 10 3Z";
const TRASH_ICON_PATH =
  "M8.75 1A2.75 2.75 0 0 0 6 3.75v.443c-.795.077-1.584.176-2.365.298a.75.75 0 1 0 .23 1.482l.149-.022.841 10.518A2.75 2.75 0 0 0 7.596 19h4.807a2.75 2.75 0 0 0 2.742-2.53l.841-10.52.149.023a.75.75 0 0 0 .23-1.482A41.03 41.03 0 0 0 14 4.193V3.75A2.75 2.75 0 0 0 11.25 1h-2.5ZM10 4c.84 0 1.673.025 2.5.075V3.75c0-.69-.56-1.25-1.25-1.25h-2.5c-.69 0-1.25.56-1.25 1.25v.325C8.327 4.025 9.16 4 10 4ZM8.58 7.72a.75.75 0 0 0-1.5.06l.3 7.5a.75.75 0 1 0 1.5-.06l-.3-7.5Zm4.34.06a.75.75 0 1 0-1.5-.06l-.3 7.5a.75.75 0 1 0 1.5.06l.3-7.5Z";

/** A 20×20 solid icon, decorative: its button carries the name. */
function SolidIcon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
      <path fillRule="evenodd" d={path} clipRule="evenodd" />
    </svg>
  );
}

export function ArrowUpIcon() {
  return <SolidIcon path={ARROW_UP_ICON_PATH} />;
}

export function ArrowDownIcon() {
  return <SolidIcon path={ARROW_DOWN_ICON_PATH} />;
}

export function TrashIcon() {
  return <SolidIcon path={TRASH_ICON_PATH} />;
}
