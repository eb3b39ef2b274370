import type { FormFields } from "@/lib/forms/form-submission";

const MAX_FIELDS_SHOWN = 8;
const MAX_VALUE_CHARS = 200;

function valueText(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/**
 * A submission's fields as name/value pairs. Names and values are whatever a visitor sent: React
 * escapes them as text, and long values and many fields are cut (the CSV export has them whole).
 */
export function SubmissionFields({ fields }: { fields: FormFields }) {
  const entries = Object.entries(fields);
  if (entries.length === 0) return <span className="text-xs text-slate-500">No fields</span>;
  return (
    <div className="max-w-xl">
      <dl className="grid grid-cols-[minmax(0,10rem)_1fr] gap-x-3 gap-y-0.5 text-xs">
        {entries.slice(0, MAX_FIELDS_SHOWN).map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="truncate font-mono text-slate-500">{name}</dt>
            <dd className="break-words whitespace-pre-wrap text-slate-800">{valueText(value)}</dd>
          </div>
        ))}
      </dl>
      {entries.length > MAX_FIELDS_SHOWN && <p className="mt-0.5 text-xs text-slate-500">and {entries.length - MAX_FIELDS_SHOWN} more (see the CSV export)</p>}
    </div>
  );
}
