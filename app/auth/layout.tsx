import type { Metadata } from "next";
import type { ReactNode } from "react";

/**
 * Pages the end users of a customer's site reach from their emails: neutral, unbranded, no
 * dashboard session involved. Tokens are in the address, so it is never sent on as a referrer
 * nor indexed.
 */
export const metadata: Metadata = {
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export default function EndUserAuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-start justify-center bg-neutral-100 px-4 py-16 text-neutral-900 sm:items-center">
      <div className="w-full max-w-sm rounded-lg border border-neutral-200 bg-white p-6 shadow-sm">{children}</div>
    </main>
  );
}
