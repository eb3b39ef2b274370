import type { InputHTMLAttributes, SelectHTMLAttributes } from "react";
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
