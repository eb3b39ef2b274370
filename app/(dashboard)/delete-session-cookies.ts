import { cookies } from "next/headers";
import { sessionCookieName } from "@/lib/auth/session";

/** Removes this browser's session cookie, next-auth's chunks of a large one (`name.0`, `name.1`, …) included. */
export async function deleteSessionCookies(): Promise<Awaited<ReturnType<typeof cookies>>> {
  const store = await cookies();
  const name = sessionCookieName();
  for (const cookie of store.getAll()) {
    if (cookie.name === name || cookie.name.startsWith(`${name}.`)) store.delete(cookie.name);
  }
  return store;
}
