import { AppLink as Link } from "@/components/ui/app-link";
import type { ReactNode } from "react";
import { Logo } from "./logo";
import { SignOutButton } from "./sign-out-button";
import { WorkspaceSwitcher, type SwitcherWorkspace } from "./workspace-switcher";

/** The dashboard's top bar: home, the workspace switcher, the development mailbox, who is signed in, account actions, sign-out. */
export function TopBar({ email, workspaces, accountActions }: { email: string; workspaces: SwitcherWorkspace[]; accountActions?: ReactNode }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-14 w-full max-w-6xl items-center gap-3 px-4 sm:px-6">
        {/* On a phone the name and the separator give way, so every control keeps a 24 px target. */}
        <Link href="/workspaces" aria-label="Flowpoint: all workspaces" className="shrink-0">
          <span className="sm:hidden">
            <Logo compact />
          </span>
          <span className="hidden sm:inline">
            <Logo />
          </span>
        </Link>
        <span className="hidden text-slate-300 sm:inline" aria-hidden="true">
          /
        </span>
        <WorkspaceSwitcher workspaces={workspaces} />
        <nav aria-label="Account" className="ml-auto flex items-center gap-1 sm:gap-3">
          <Link href="/mailbox" className="rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900">
            Mailbox
          </Link>
          <span className="hidden max-w-72 truncate text-sm text-slate-500 sm:inline" title={email} data-testid="current-user-email">
            {email}
          </span>
          {/* On a phone the account actions fold into a menu: in a row they made the bar ~520 px wide,
              wider than the screen, and a phone then shows every dashboard page zoomed out. */}
          <div className="hidden items-center gap-3 sm:flex">
            {accountActions}
            <SignOutButton />
          </div>
          <details className="relative sm:hidden">
            <summary className="cursor-pointer list-none rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900 [&::-webkit-details-marker]:hidden">
              Menu
            </summary>
            <div className="absolute right-0 z-40 mt-2 flex w-max flex-col items-stretch gap-1 rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
              {accountActions}
              <SignOutButton />
            </div>
          </details>
        </nav>
      </div>
    </header>
  );
}
