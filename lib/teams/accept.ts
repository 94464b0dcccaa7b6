import { z } from "zod";
import { getDb, Prisma } from "@/lib/db";
import { hashToken } from "@/lib/auth/tokens";
import { hashPassword } from "@/lib/auth/password";
import { accountInput, type AccountInput } from "@/lib/auth/schemas";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { recordAudit } from "@/lib/audit/record";
import { AccessError } from "@/lib/auth/access";

const fieldError = (field: string, message: string) => new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);

/** The email and password did not sign in (said exactly as the sign-in page says it). */
export class InvitationSignInError extends Error {
  constructor(readonly limited: boolean) {
    super(limited ? "too many sign-in attempts" : "email or password is incorrect");
  }
}

/**
 * Who accepts: a signed-in person, or an email and password. An email that already has an
 * account joins with that account when the password is its own (a sign-in, under the sign-in
 * limits); the form never answers "this email has an account".
 */
async function resolveAccount(who: { userId: string } | AccountInput, now: Date, address: string) {
  if ("userId" in who) return { userId: who.userId, account: null, passwordHash: null };
  const account = accountInput.parse(who);
  const existing = await getDb().user.findUnique({ where: { email: account.email }, select: { id: true } });
  if (!existing) return { userId: null, account, passwordHash: await hashPassword(account.password) };
  const signedIn = await signInWithPassword(account.email, account.password, address, now);
  if (!signedIn.ok) throw new InvitationSignInError(signedIn.reason === "limited");
  return { userId: signedIn.user.id, account, passwordHash: null };
}

/** Accepts an invitation. The claim is a conditional update, so a link works once even when clicked twice at once. */
export async function acceptInvitation(token: string, who: { userId: string } | AccountInput, now = new Date(), address = "unknown") {
  const inv = await getDb().invitation.findUnique({ where: { tokenHash: hashToken(token) } });
  const notValid = () => new AccessError(404, "this invitation is not valid any more (expired, revoked or used)");
  if (!inv || inv.acceptedAt || inv.revokedAt || inv.expiresAt <= now) throw notValid();
  const email = "userId" in who ? null : String(who.email ?? "").trim().toLowerCase();
  if (email !== null && inv.email && inv.email !== email) throw fieldError("email", `must be ${inv.email}, the address this invitation was sent to`);
  const resolved = await resolveAccount(who, now, address);
  return getDb().$transaction(async (tx) => {
    const claimed = (await tx.invitation.updateMany({
      where: { id: inv.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    })).count === 1;
    if (!claimed) throw notValid();
    let userId = resolved.userId;
    if (!userId) {
      const account = resolved.account!;
      try {
        userId = (await tx.user.create({ data: { email: account.email, name: account.name, passwordHash: resolved.passwordHash } })).id;
      } catch (err) {
        // The address got an account a moment ago: from here on it is like any existing one.
        if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw new InvitationSignInError(false);
        throw err;
      }
    } else if (await tx.membership.findUnique({ where: { teamId_userId: { teamId: inv.teamId, userId } } })) {
      throw fieldError("invitation", "you are already a member of this team");
    }
    const membership = await tx.membership.create({ data: { teamId: inv.teamId, userId, role: inv.role } });
    await tx.invitation.update({ where: { id: inv.id }, data: { acceptedById: userId } });
    await recordAudit({ teamId: inv.teamId, by: { kind: "user", id: userId }, action: "member.joined", target: { type: "membership", id: membership.id }, after: { role: inv.role, invitationId: inv.id } }, tx);
    return { userId, teamId: inv.teamId, role: inv.role };
  });
}
