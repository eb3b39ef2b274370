import { cloneElement, isValidElement, type ReactNode, type TextareaHTMLAttributes } from "react";
import { cn } from "@/components/ui/cn";
import { Label } from "@/components/ui/label";
import { FieldError } from "@/components/ui/form-error";

/**
 * Form controls the editors need beyond components/ui: a textarea styled like Input, a checkbox
 * with its label, and a wrapper that wires a label, a hint and an error to any control by id.
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

/**
 * A label above a control, a hint under it (hidden while there is an error) and the error. A single
 * control child with the same id that names no descriptions itself is described by the hint or error.
 */
export function FieldShell({
  id,
  label,
  hint,
  error,
  children,
  className,
  footer,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
  /** Shown under the error, such as a suggested fix. */
  footer?: ReactNode;
}) {
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <div className="mt-1">{describeControl(id, children, hint, error)}</div>
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
      {footer}
    </div>
  );
}

function describeControl(id: string, children: ReactNode, hint: unknown, error: unknown): ReactNode {
  if (!isValidElement<{ id?: string; "aria-describedby"?: string }>(children)) return children;
  if (children.props.id !== id || children.props["aria-describedby"] !== undefined) return children;
  const ids = describedBy(id, hint, error);
  return ids === undefined ? children : cloneElement(children, { "aria-describedby": ids });
}

/** The aria-describedby of a control inside FieldShell. */
export function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return [hint && !error ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
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

export function ArrowUpIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
      <path
        fillRule="evenodd"
        d="M10 17a.75.75 0 0 1-.75-.75V5.612L5.29 9.77a.75.75 0 0 1-1.08-1.04l5.25-5.5a.75.75 0 0 1 1.08 0l5.25 5.5a.75.75 0 1 1-1.08 1.04l-3.96-4.158V16.25A.75.75 0 0 1 10 17Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

export function ArrowDownIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
      <path
        fillRule="evenodd"
        d="M10 3a.75.75 0 0 1 .75.75v10.638l3.96-4.158a.75.75 0 1 1 1.08 1.04l-5.25 5.5a.75.75 0 0 1-1.08 0l-5.25-5.5a.75.75 0 1 1 1.08-1.04l3.96 4.158V3.75A.75.75 0 0 1 10 3Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

export function TrashIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
      <path
        fillRule="evenodd"
        d="M8.75 1A2.75 2.75 0 0 0 6 3.75v.443c-.795.077-1.584.176-2.365.298a.75.75 0 1 0 .23 1.482l.149-.022.841 10.518A2.75 2.75 0 0 0 7.596 19h4.807a2.75 2.75 0 0 0 2.742-2.53l.841-10.52.149.023a.75.75 0 0 0 .23-1.482A41.03 41.03 0 0 0 14 4.193V3.75A2.75 2.75 0 0 0 11.25 1h-2.5ZM10 4c.84 0 1.673.025 2.5.075V3.75c0-.69-.56-1.25-1.25-1.25h-2.5c-.69 0-1.25.56-1.25 1.25v.325C8.327 4.025 9.16 4 10 4ZM8.58 7.72a.75.75 0 0 0-1.5.06l.3 7.5a.75.75 0 1 0 1.5-.06l-.3-7.5Zm4.34.06a.75.75 0 1 0-1.5-.06l-.3 7.5a.75.75 0 1 0 1.5.06l.3-7.5Z"
        clipRule="evenodd"
      />
    </svg>
  );
}
