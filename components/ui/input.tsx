import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";
import { cn } from "./cn";

const FIELD =
  "block w-full rounded-md border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 " +
  "focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/20 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500";

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
}

/** Its height comes from padding, not a fixed h-10: Chromium clips low glyphs (a monospace "_") in fixed-height inputs. */
export function Input({ className, invalid, ...props }: InputProps) {
  return <input aria-invalid={invalid || undefined} className={cn(FIELD, "py-2.25", invalid ? "border-rose-400" : "border-slate-300", className)} {...props} />;
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  invalid?: boolean;
}

export function Select({ className, invalid, ...props }: SelectProps) {
  return <select aria-invalid={invalid || undefined} className={cn(FIELD, "h-10 pr-8", invalid ? "border-rose-400" : "border-slate-300", className)} {...props} />;
}

/**
 * A select over names (schemas, fields, templates, time zones, methods), after an optional empty
 * choice. A value that is not among the names (a schema deleted since the step was saved) stays as
 * its own option, so the select still shows what is saved.
 */
export function NameSelect({
  names,
  value,
  emptyLabel,
  format = (name) => name,
  ...props
}: Omit<SelectProps, "value" | "children"> & { names: readonly string[]; value: string; emptyLabel?: string; format?: (name: string) => ReactNode }) {
  return (
    <Select value={value} {...props}>
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {names.map((name) => (
        <option key={name} value={name}>
          {format(name)}
        </option>
      ))}
      {value && !names.includes(value) && <option value={value}>{format(value)}</option>}
    </Select>
  );
}
