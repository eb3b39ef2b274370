import { cloneElement, isValidElement, type ReactNode } from "react";
import { Input, type InputProps } from "./input";
import { Label } from "./label";
import { FieldError } from "./form-error";

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

/**
 * A text input in a FieldShell: the label names it, the hint or error describes it, and an error
 * marks it invalid. `className` styles the input, `fieldClassName` the whole field.
 */
export function TextField({
  id,
  label,
  hint,
  error,
  footer,
  fieldClassName,
  ...inputProps
}: InputProps & { id: string; label: ReactNode; hint?: ReactNode; error?: string; footer?: ReactNode; fieldClassName?: string }) {
  return (
    <FieldShell id={id} label={label} hint={hint} error={error} footer={footer} className={fieldClassName}>
      <Input id={id} invalid={Boolean(error)} {...inputProps} />
    </FieldShell>
  );
}
