import type { ReactNode } from "react";
import { Input, type InputProps } from "./input";
import { Label } from "./label";
import { FieldError } from "./form-error";

/** Label, input, hint and error wired together with ids, so that the label names the input and the error describes it. */
export function TextField({ id, label, hint, error, ...inputProps }: InputProps & { id: string; label: ReactNode; hint?: ReactNode; error?: string }) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} className="mt-1" invalid={Boolean(error)} aria-describedby={describedBy} {...inputProps} />
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
