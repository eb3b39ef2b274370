import Link from "next/link";
import { Logo } from "@/components/dashboard/logo";

export default function HomePage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col justify-center gap-6 px-6">
      <Logo />
      <h1 className="text-4xl font-bold tracking-tight">Custom endpoints over the database you own.</h1>
      <p className="text-lg text-slate-600">Define a route, an ordered flow of steps and the shape of the response. We serve it fast, safely, and log every step.</p>
      <div className="flex gap-3">
        <Link href="/sign-up" className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-500">
          Create an account
        </Link>
        <Link href="/sign-in" className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100">
          Sign in
        </Link>
      </div>
    </main>
  );
}
