import { getDb } from "@/lib/db";
import { verifyDecoy, verifyPassword } from "@/lib/auth/password";

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
}

/** Returns the user for a correct email + password, null otherwise (never says which). */
export async function checkCredentials(email: string, password: string): Promise<SessionUser | null> {
  const user = await getDb().user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user?.passwordHash) {
    await verifyDecoy(password);
    return null;
  }
  if (!(await verifyPassword(user.passwordHash, password))) return null;
  return { id: user.id, email: user.email, name: user.name };
}

/** A session minted before the user's "sign out everywhere" is no longer valid. */
export async function isSessionCurrent(userId: string, issuedAtSeconds: number): Promise<boolean> {
  const user = await getDb().user.findUnique({ where: { id: userId }, select: { sessionsValidAfter: true } });
  if (!user) return false;
  return issuedAtSeconds * 1000 >= user.sessionsValidAfter.getTime() - 1000;
}
