import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/session";

type NextAuthRouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: NextAuthRouteContext): Promise<Response> {
  return NextAuth(getAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
