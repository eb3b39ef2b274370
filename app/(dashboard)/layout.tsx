import { AppLink as Link } from "@/components/ui/app-link";
import type { ReactNode } from "react";
import { getCurrentUser } from "@/lib/auth/current-user";
import { listWorkspaces } from "@/lib/workspaces/list-workspaces";
import { TopBar } from "@/components/dashboard/top-bar";
import { SignOutEverywhereButton } from "./sign-out-everywhere-button";

function AccountActions() {
  return (
    <>
      <Link href="/account" className="rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900">
        Account
      </Link>
      <SignOutEverywhereButton />
    </>
  );
}

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await getCurrentUser();
  const workspaces = await listWorkspaces({ userId: user.id });
  return (
    <div className="flex min-h-screen flex-col">
      {/* The first Tab stop: past the top bar and the project navigation to the page itself. */}
      <a
        href="#main-content"
        className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        Skip to content
      </a>
      <TopBar email={user.email} workspaces={workspaces.map(({ id, name }) => ({ id, name }))} accountActions={<AccountActions />} />
      <main id="main-content" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none sm:px-6">
        {children}
      </main>
    </div>
  );
}
