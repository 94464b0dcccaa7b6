import { getDb } from "@/lib/db";

/**
 * Failures slow an attacker without locking the owner out. Per account and address, the first
 * few are free, then each waits twice as long as the one before (up to a few minutes), so a
 * guesser at one address makes a handful of tries an hour while the owner, at another address,
 * signs in as usual. Per address across accounts, a spray is stopped; per account across all
 * addresses, a ceiling far above any person's mistakes bounds a distributed guesser. Limits
 * apply alike to addresses with and without an account, so being limited reveals nothing.
 */
export const SIGN_IN_LIMITS = {
  windowMs: 15 * 60_000,
  freePerPair: 3,
  firstDelayMs: 2_000,
  maxDelayMs: 5 * 60_000,
  perAddress: 20,
  perAccount: 200,
} as const;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The delay after `failures` failures of one account at one address (0: the next try is free). */
export function pairDelayMs(failures: number): number {
  if (failures < SIGN_IN_LIMITS.freePerPair) return 0;
  return Math.min(SIGN_IN_LIMITS.firstDelayMs * 2 ** (failures - SIGN_IN_LIMITS.freePerPair), SIGN_IN_LIMITS.maxDelayMs);
}

export async function isSignInLimited(rawEmail: string, address: string, now = new Date()): Promise<boolean> {
  const db = getDb();
  const email = normalizeEmail(rawEmail);
  const windowStart = new Date(now.getTime() - SIGN_IN_LIMITS.windowMs);
  const lastSuccess = await db.signInAttempt.findFirst({
    where: { email, succeeded: true, createdAt: { gte: windowStart } }, orderBy: { createdAt: "desc" }, select: { createdAt: true },
  });
  // A correct password proves the person; failures before it no longer count against the account.
  const accountSince = lastSuccess?.createdAt ?? windowStart;
  const [pair, byAddress, byAccount] = await Promise.all([
    db.signInAttempt.findMany({
      where: { email, address, succeeded: false, createdAt: { gt: accountSince } }, orderBy: { createdAt: "desc" }, select: { createdAt: true },
    }),
    db.signInAttempt.count({ where: { address, succeeded: false, createdAt: { gte: windowStart } } }),
    db.signInAttempt.count({ where: { email, succeeded: false, createdAt: { gt: accountSince } } }),
  ]);
  if (byAddress >= SIGN_IN_LIMITS.perAddress || byAccount >= SIGN_IN_LIMITS.perAccount) return true;
  const wait = pairDelayMs(pair.length);
  return wait > 0 && now.getTime() < pair[0].createdAt.getTime() + wait;
}

export async function recordSignInAttempt(email: string, address: string, succeeded: boolean, now = new Date()): Promise<void> {
  await getDb().signInAttempt.create({ data: { email: normalizeEmail(email), address, succeeded, createdAt: now } });
}

/**
 * The client address. X-Forwarded-For is trustworthy here: the web server (scripts/web.ts) drops
 * it unless a trusted proxy sent it, and otherwise Next.js sets it from the socket.
 */
export function clientAddress(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}
