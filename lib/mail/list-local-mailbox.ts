import { desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { issuesFromZod, validationError } from "@/lib/errors";
import { getPlatformDb } from "@/lib/platform-db/client";
import { localMailbox } from "@/lib/platform-db/schema";

export interface LocalMailboxMessage {
  id: string;
  projectId: string | null;
  from: string;
  to: string[];
  subject: string;
  html: string | null;
  text: string | null;
  createdAt: Date;
}

const listOptionsSchema = z.object({
  projectId: z.string().min(1).nullable().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

/**
 * Messages the local mailbox transport stored, newest first. `projectId`: a project's mail;
 * `null`: platform mail only; omitted: everything.
 */
export async function listLocalMailbox(options: { projectId?: string | null; limit?: number } = {}): Promise<LocalMailboxMessage[]> {
  const parsed = listOptionsSchema.safeParse(options);
  if (!parsed.success) throw validationError("invalid mailbox query", issuesFromZod(parsed.error));
  const { projectId, limit } = parsed.data;
  const db = await getPlatformDb();
  const where = projectId === undefined ? undefined : projectId === null ? isNull(localMailbox.projectId) : eq(localMailbox.projectId, projectId);
  return db
    .select({
      id: localMailbox.id,
      projectId: localMailbox.projectId,
      from: localMailbox.from,
      to: localMailbox.to,
      subject: localMailbox.subject,
      html: localMailbox.html,
      text: localMailbox.text,
      createdAt: localMailbox.createdAt,
    })
    .from(localMailbox)
    .where(where)
    .orderBy(desc(localMailbox.createdAt), desc(localMailbox.id))
    .limit(limit);
}
