import { checkCredentials, type SessionUser } from "@/lib/auth/credentials";
import { isSignInLimited, recordSignInAttempt } from "@/lib/auth/rate-limit";

export type SignInResult = { ok: true; user: SessionUser } | { ok: false; reason: "invalid" | "limited" };

/** Email + password sign-in under the per-account and per-address limits. */
export async function signInWithPassword(email: string, password: string, address: string, now = new Date()): Promise<SignInResult> {
  if (await isSignInLimited(email, address, now)) return { ok: false, reason: "limited" };
  const user = await checkCredentials(email, password);
  await recordSignInAttempt(email, address, Boolean(user), now);
  return user ? { ok: true, user } : { ok: false, reason: "invalid" };
}
