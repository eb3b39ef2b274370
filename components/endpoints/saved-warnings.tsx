import type { TemplateWarning } from "@/lib/flow/template-context/find-flow-template-warnings";
import { cn } from "@/components/ui/cn";

/** `steps.2.filters` → "Step 3, filters"; `response.headers.X-Total` → "Response, headers.X-Total". */
export function describeWarningPath(path: string): string {
  const step = /^steps\.(\d+)(?:\.(.+))?$/.exec(path);
  if (step) return [`Step ${Number(step[1]) + 1}`, step[2]].filter(Boolean).join(", ");
  const [head = "", ...rest] = path.split(".");
  return [head.charAt(0).toUpperCase() + head.slice(1), rest.join(".")].filter(Boolean).join(", ");
}

/**
 * The placeholder warnings the server answered with a save: the definition was saved, and these
 * placeholders will stay literal text when it runs. The fields underline the same ones as you edit.
 */
export function SavedWarnings({ warnings, className }: { warnings: readonly TemplateWarning[]; className?: string }) {
  if (warnings.length === 0) return null;
  return (
    <div role="status" className={cn("rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950", className)}>
      <p className="font-medium">Saved with {warnings.length === 1 ? "1 placeholder" : `${warnings.length} placeholders`} that will not resolve (warnings do not block saving):</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {warnings.map((warning, index) => {
          // The message starts with the placeholder, which is shown underlined before it.
          const lead = `${warning.placeholder} will not resolve: `;
          return (
            <li key={`${warning.path}-${index}`}>
              <span className="font-medium">{describeWarningPath(warning.path)}</span>:{" "}
              <code className="font-mono text-[13px] underline decoration-amber-600 decoration-wavy underline-offset-2">{warning.placeholder}</code>{" "}
              {warning.message.startsWith(lead) ? warning.message.slice(lead.length) : warning.message}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
