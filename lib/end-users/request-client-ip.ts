import { getClientIp } from "@/lib/http/client-ip";

const IP_TEXT = /^[0-9A-Fa-f:.]{2,45}$/;

/**
 * The client IP the end-user rate limits count by (lib/http/client-ip.ts decides where it comes
 * from); "unknown" when that is not an IP address.
 */
export function getRequestClientIp(request: Request): string {
  const ip = getClientIp(request);
  return IP_TEXT.test(ip) ? ip.toLowerCase() : "unknown";
}
