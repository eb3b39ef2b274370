import { createHash } from "node:crypto";
import { AppError } from "@/lib/errors";
import { getKv } from "@/lib/kv/get-kv";
import type { RateLimitRule } from "@/lib/kv/kv";

const FIFTEEN_MINUTES = 15 * 60;
const ONE_HOUR = 60 * 60;

/**
 * Limits of the dashboard's own sign-in, sign-up and invitation flows, counted on the shared
 * key-value store so that every instance counts together (the memory backend counts per process).
 * Sign-in counts failures only, so that people who type their password right are never slowed
 * down; sign-up and invitation acceptance count every attempt.
 */
export const DASHBOARD_AUTH_RATE_LIMITS = {
  signInFailuresPerAccount: { limit: 10, windowSeconds: FIFTEEN_MINUTES },
  signInFailuresPerIp: { limit: 30, windowSeconds: FIFTEEN_MINUTES },
  // Generous enough for a team signing up from one office (and an end-to-end run) within the hour.
  signUpPerIp: { limit: 30, windowSeconds: ONE_HOUR },
  acceptInvitationPerIp: { limit: 30, windowSeconds: FIFTEEN_MINUTES },
  acceptInvitationPerUser: { limit: 10, windowSeconds: FIFTEEN_MINUTES },
} as const satisfies Record<string, RateLimitRule>;

export type DashboardAuthLimit = keyof typeof DASHBOARD_AUTH_RATE_LIMITS;

/** What the refusal says was attempted too often: "Too many sign-in attempts, try again in 15 minutes". */
const ATTEMPT_NAMES: Record<DashboardAuthLimit, string> = {
  signInFailuresPerAccount: "sign-in attempts",
  signInFailuresPerIp: "sign-in attempts",
  signUpPerIp: "sign-up attempts",
  acceptInvitationPerIp: "attempts to accept invitations",
  acceptInvitationPerUser: "attempts to accept invitations",
};

export interface DashboardAuthSubject {
  limit: DashboardAuthLimit;
  /** A client IP, a user id or a normalized email; emails are hashed before they reach the store. */
  value: string;
}

/** What a failed password check counts against: the account (normalized email, known or not) and the client. */
export function signInFailureSubjects(email: string, clientIp: string): DashboardAuthSubject[] {
  return [
    { limit: "signInFailuresPerAccount", value: email.trim().toLowerCase() },
    { limit: "signInFailuresPerIp", value: clientIp },
  ];
}

const PER_IP_LIMITS: ReadonlySet<DashboardAuthLimit> = new Set(["signInFailuresPerIp", "signUpPerIp", "acceptInvitationPerIp"]);

/**
 * Per-IP subjects without a known address ("unknown": see lib/end-users/request-client-ip.ts) are
 * not counted: every such client would share one counter, and a few typos would lock everyone out.
 */
function countable(subjects: readonly DashboardAuthSubject[]): DashboardAuthSubject[] {
  return subjects.filter((subject) => !(PER_IP_LIMITS.has(subject.limit) && subject.value === "unknown"));
}

function keyOf(subject: DashboardAuthSubject): string {
  // Hashed: no addresses in the key-value store, and keys of bounded length.
  const hashed = createHash("sha256").update(subject.value).digest("hex").slice(0, 32);
  return `dashboard-auth:${subject.limit}:${hashed}`;
}

export function tooManyAttemptsMessage(limit: DashboardAuthLimit, retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many ${ATTEMPT_NAMES[limit]}, try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

export function tooManyAttemptsError(limit: DashboardAuthLimit, retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError("rate_limited", tooManyAttemptsMessage(limit, seconds), { headers: { "Retry-After": String(seconds) } });
}

/** Counts one attempt for each subject; throws AppError("rate_limited") with Retry-After once any is over its limit. */
export async function enforceDashboardAuthLimits(all: readonly DashboardAuthSubject[]): Promise<void> {
  const subjects = countable(all);
  const kv = getKv();
  const results = await Promise.all(subjects.map((subject) => kv.rateLimiter.limit(keyOf(subject), DASHBOARD_AUTH_RATE_LIMITS[subject.limit])));
  const refusals = results.flatMap((result, index) => (result.success ? [] : [{ subject: subjects[index]!, retryAfterSeconds: result.retryAfterSeconds }]));
  const longest = refusals.sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
  if (longest) throw tooManyAttemptsError(longest.subject.limit, longest.retryAfterSeconds);
}

/*
 * Failure-only limits (sign-in): the limiter counts failures, and the failure that uses up a
 * subject's allowance leaves a block marker in the cache until the limiter's bucket ends. Attempts
 * read the markers first, so a blocked account is refused before any password is checked — even
 * the right one — and a blocked client costs no scrypt work.
 */
function blockKeyOf(subject: DashboardAuthSubject): string {
  return `${keyOf(subject)}:blocked-until`;
}

/** Throws AppError("rate_limited") when any subject is blocked by earlier failures. Counts nothing. */
export async function assertNotBlockedByFailures(all: readonly DashboardAuthSubject[]): Promise<void> {
  const subjects = countable(all);
  if (subjects.length === 0) return;
  const markers = await getKv().cache.getMany(subjects.map(blockKeyOf));
  const now = Date.now();
  let longest: { subject: DashboardAuthSubject; retryAfterSeconds: number } | undefined;
  markers.forEach((marker, index) => {
    const blockedUntil = Number(marker);
    if (!marker || !Number.isFinite(blockedUntil) || blockedUntil <= now) return;
    const retryAfterSeconds = Math.ceil((blockedUntil - now) / 1000);
    if (!longest || retryAfterSeconds > longest.retryAfterSeconds) longest = { subject: subjects[index]!, retryAfterSeconds };
  });
  if (longest) throw tooManyAttemptsError(longest.subject.limit, longest.retryAfterSeconds);
}

/** Counts one failure for each subject; blocks (see above) each subject whose allowance is used up. */
export async function recordFailures(subjects: readonly DashboardAuthSubject[]): Promise<void> {
  const kv = getKv();
  await Promise.all(
    countable(subjects).map(async (subject) => {
      const result = await kv.rateLimiter.limit(keyOf(subject), DASHBOARD_AUTH_RATE_LIMITS[subject.limit]);
      if (result.degraded || (result.success && result.remaining > 0)) return;
      const ttlSeconds = Math.max(1, (result.resetAt - Date.now()) / 1000);
      await kv.cache.set(blockKeyOf(subject), String(result.resetAt), ttlSeconds);
    }),
  );
}
