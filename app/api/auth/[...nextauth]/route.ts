import { handleNextAuthRequest } from "@/lib/auth/handle-next-auth-request";

type NextAuthRouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: NextAuthRouteContext): Promise<Response> {
  return handleNextAuthRequest(request, (await context.params).nextauth);
}

export { handler as GET, handler as POST };
