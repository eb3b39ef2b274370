import { headers } from "next/headers";
import { getRequestClientIp } from "@/lib/end-users/request-client-ip";

/** The client IP of the request a server action runs in, read exactly as route handlers read it. */
export async function getActionClientIp(): Promise<string> {
  return getRequestClientIp(new Request("http://server-action.invalid/", { headers: await headers() }));
}
