import Link from "next/link";
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
      <TopBar email={user.email} workspaces={workspaces.map(({ id, name }) => ({ id, name }))} accountActions={<AccountActions />} />
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">{children}</main>
    </div>
  );
}
