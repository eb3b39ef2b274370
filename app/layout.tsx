import type { Metadata } from "next";
import type { ReactNode } from "react";
import { connection } from "next/server";
import { BrowserRuntimeConfig } from "@/components/browser-runtime-config";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Flowpoint", template: "%s · Flowpoint" },
  description: "No-code custom endpoints over the database you own.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: Next puts the request's CSP nonce (proxy.ts) on its scripts, and
  // a page prerendered at build time would carry none and be blocked.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-full font-sans">
        <BrowserRuntimeConfig />
        {children}
      </body>
    </html>
  );
}
