"use client";

import { AppLink as Link } from "@/components/ui/app-link";
import { useParams, usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

export interface SwitcherWorkspace {
  id: string;
  name: string;
}

/** A menu of the user's workspaces; its button names the workspace being viewed, if any. */
export function WorkspaceSwitcher({ workspaces }: { workspaces: SwitcherWorkspace[] }) {
  const params = useParams<{ workspaceId?: string }>();
  const pathname = usePathname();
  const ref = useRef<HTMLDetailsElement>(null);
  const current = workspaces.find((workspace) => workspace.id === params.workspaceId);

  // Close the menu after navigating and on outside clicks.
  useEffect(() => {
    ref.current?.removeAttribute("open");
  }, [pathname]);
  useEffect(() => {
    function onClick(event: MouseEvent) {
      if (ref.current && !ref.current.contains(event.target as Node)) ref.current.removeAttribute("open");
    }
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);

  return (
    <details ref={ref} className="group relative min-w-12">
      <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-slate-800 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
        <span className="max-w-48 truncate">{current?.name ?? "Workspaces"}</span>
        <span className="sr-only">: switch workspace</span>
        <svg viewBox="0 0 20 20" className="size-4 text-slate-400" fill="currentColor" aria-hidden="true">
          <path d="M10 3a.75.75 0 0 1 .55.24l3.25 3.5a.75.75 0 1 1-1.1 1.02L10 4.852 7.3 7.76a.75.75 0 0 1-1.1-1.02l3.25-3.5A.75.75 0 0 1 10 3Zm-3.76 9.2a.75.75 0 0 1 1.06.04l2.7 2.908 2.7-2.908a.75.75 0 1 1 1.1 1.02l-3.25 3.5a.75.75 0 0 1-1.1 0l-3.25-3.5a.75.75 0 0 1 .04-1.06Z" />
        </svg>
      </summary>
      <div className="absolute left-0 z-40 mt-2 w-64 rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
        <p className="px-2 py-1.5 text-xs font-medium uppercase tracking-wide text-slate-600">Your workspaces</p>
        <ul>
          {workspaces.map((workspace) => (
            <li key={workspace.id}>
              <Link
                href={`/workspaces/${workspace.id}`}
                aria-current={workspace.id === current?.id ? "page" : undefined}
                className="flex items-center justify-between rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100 aria-[current=page]:bg-indigo-50 aria-[current=page]:text-indigo-700"
              >
                <span className="truncate">{workspace.name}</span>
              </Link>
            </li>
          ))}
          {workspaces.length === 0 && <li className="px-2 py-1.5 text-sm text-slate-500">None yet</li>}
        </ul>
        <div className="mt-1 border-t border-slate-100 pt-1">
          <Link href="/workspaces" className="block rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100">
            All workspaces & new workspace
          </Link>
        </div>
      </div>
    </details>
  );
}
