import type { ReactNode } from "react";
import { cn } from "./cn";

/**
 * One choice among a few, as radio buttons on cards with a label and a line of description. The
 * group is named by its (visually hidden) legend; an error shows under the cards.
 */
export function ChoiceCards<T extends string>({
  legend,
  name,
  choices,
  labels,
  value,
  onChange,
  error,
  className,
  legendVisible = false,
  disabled = false,
}: {
  legend: string;
  /** The radio group's name. */
  name: string;
  choices: readonly T[];
  labels: Readonly<Record<T, { label: ReactNode; description: ReactNode }>>;
  value: T;
  onChange: (value: T) => void;
  error?: string;
  /** The grid's columns. */
  className?: string;
  /** Show the legend above the cards (else it names the group for assistive technology only). */
  legendVisible?: boolean;
  /** The choice is shown but cannot change (e.g. fixed once created). */
  disabled?: boolean;
}) {
  return (
    <fieldset>
      <legend className={legendVisible ? "text-sm font-medium text-slate-700" : "sr-only"}>{legend}</legend>
      <div className={cn("grid gap-2", legendVisible && "mt-2", className)}>
        {choices.map((choice) => (
          <label
            key={choice}
            className={cn(
              "flex gap-2 rounded-lg border p-3 text-sm has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600",
              value === choice ? "border-indigo-400 bg-indigo-50/50 ring-1 ring-indigo-400" : "border-slate-200",
              disabled ? "cursor-not-allowed opacity-70" : cn("cursor-pointer", value !== choice && "hover:bg-slate-50"),
            )}
          >
            <input type="radio" name={name} value={choice} checked={value === choice} disabled={disabled} onChange={() => onChange(choice)} className="mt-0.5 accent-indigo-600" />
            <span>
              <span className="font-medium text-slate-900">{labels[choice].label}</span>
              <span className="block text-xs text-slate-500">{labels[choice].description}</span>
            </span>
          </label>
        ))}
      </div>
      {error && <p className="mt-1 text-sm text-rose-700">{error}</p>}
    </fieldset>
  );
}
