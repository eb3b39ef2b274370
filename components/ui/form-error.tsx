import type { ReactNode } from "react";
import { cn } from "./cn";

/** The form-level error of an action: announced to screen readers, never a stack trace. */
export function FormError({ message, issues, className }: { message?: string; issues?: string[]; className?: string }) {
  if (!message && !issues?.length) return null;
  return (
    <div role="alert" className={cn("rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800", className)}>
      {message && <p className="font-medium">{message}</p>}
      {issues && issues.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {issues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-rose-700">
      {message}
    </p>
  );
}

export function Notice({ tone = "success", children, className }: { tone?: "success" | "info" | "warning"; children: ReactNode; className?: string }) {
  const tones = {
    success: "border-emerald-200 bg-emerald-50 text-emerald-800",
    info: "border-sky-200 bg-sky-50 text-sky-800",
    warning: "border-amber-200 bg-amber-50 text-amber-900",
  } as const;
  return (
    <div role="status" className={cn("rounded-md border px-3 py-2 text-sm", tones[tone], className)}>
      {children}
    </div>
  );
}
