import { z } from "zod";

/**
 * The explicit override of "one database, one project" (lib/records/database-owner.ts): attach a
 * database that another project holds, moving it to this project. That project stops using it.
 */
const takeOver = z.boolean().optional();

/** How a project's customer database is chosen: the built-in local one, or a pasted URL (`takeOver`: see above). */
export const projectDatabaseInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("local") }),
  z.object({
    kind: z.literal("postgres"),
    url: z
      .string()
      .trim()
      .max(2_000)
      .refine((url) => /^postgres(ql)?:\/\//i.test(url), { message: "must start with postgres:// or postgresql://" })
      .refine(isParsableUrl, { message: "is not a valid URL" }),
    takeOver,
  }),
  z.object({
    kind: z.literal("mongodb"),
    url: z
      .string()
      .trim()
      .max(2_000)
      .refine((url) => /^mongodb(\+srv)?:\/\//i.test(url), { message: "must start with mongodb:// or mongodb+srv://" })
      .refine(isParsableUrl, { message: "is not a valid URL" }),
    takeOver,
  }),
]);

export type ProjectDatabaseInput = z.infer<typeof projectDatabaseInput>;

function isParsableUrl(url: string): boolean {
  try {
    // mongodb:// may list several hosts ("a:1,b:2"), which WHATWG URL refuses: check the first.
    new URL(url.replace(/@([^/,]+),[^/]*/, "@$1"));
    return true;
  } catch {
    return false;
  }
}
