import { getDb } from "@/lib/db";

// Failures counted per account and per address over a sliding window. Limits apply alike
// to addresses with and without an account, so being limited reveals nothing either.
export const SIGN_IN_LIMITS = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 } as const;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function isSignInLimited(email: string, address: string, now = new Date()): Promise<boolean> {
  const db = getDb();
  const since = new Date(now.getTime() - SIGN_IN_LIMITS.windowMs);
  const lastSuccess = await db.signInAttempt.findFirst({
    where: { email: normalizeEmail(email), succeeded: true, createdAt: { gte: since } },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  // A correct password proves the person; failures before it no longer count against the account.
  const emailSince = lastSuccess && lastSuccess.createdAt > since ? lastSuccess.createdAt : since;
  const [byEmail, byAddress] = await Promise.all([
    db.signInAttempt.count({ where: { email: normalizeEmail(email), succeeded: false, createdAt: { gt: emailSince } } }),
    db.signInAttempt.count({ where: { address, succeeded: false, createdAt: { gte: since } } }),
  ]);
  return byEmail >= SIGN_IN_LIMITS.perEmail || byAddress >= SIGN_IN_LIMITS.perAddress;
}

export async function recordSignInAttempt(email: string, address: string, succeeded: boolean, now = new Date()): Promise<void> {
  await getDb().signInAttempt.create({ data: { email: normalizeEmail(email), address, succeeded, createdAt: now } });
}

/** The client address as our own server saw it (Next.js sets x-forwarded-for when no proxy did). */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || headers.get("x-real-ip") || "unknown";
}
