import Link from "next/link";
import type { ReactNode } from "react";
import { Logo } from "@/components/dashboard/logo";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-slate-50 to-indigo-50/60 px-4 py-12">
      <Link href="/" className="mb-8" aria-label="Flowpoint home">
        <Logo />
      </Link>
      <div className="w-full max-w-sm">{children}</div>
    </main>
  );
}
