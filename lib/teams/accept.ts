import { z } from "zod";
import { getDb, Prisma } from "@/lib/db";
import { hashToken } from "@/lib/auth/tokens";
import { hashPassword } from "@/lib/auth/password";
import { accountInput, type AccountInput } from "@/lib/auth/schemas";
import { recordAudit } from "@/lib/audit/record";
import { AccessError } from "@/lib/teams/membership";

const fieldError = (field: string, message: string) => new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);

/**
 * Accepts an invitation for a signed-in person ({ userId }) or by creating an account.
 * The claim is a conditional update, so a link works once even when clicked twice at once.
 */
export async function acceptInvitation(token: string, who: { userId: string } | AccountInput, now = new Date()) {
  const account = "userId" in who ? null : accountInput.parse(who);
  const passwordHash = account ? await hashPassword(account.password) : null;
  return getDb().$transaction(async (tx) => {
    const inv = await tx.invitation.findUnique({ where: { tokenHash: hashToken(token) } });
    const claimed = inv && (await tx.invitation.updateMany({
      where: { id: inv.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    })).count === 1;
    if (!inv || !claimed) throw new AccessError(404, "this invitation is not valid any more (expired, revoked or used)");
    let userId: string;
    if (account) {
      if (inv.email && inv.email !== account.email) throw fieldError("email", `must be ${inv.email}, the address this invitation was sent to`);
      try {
        userId = (await tx.user.create({ data: { email: account.email, name: account.name, passwordHash } })).id;
      } catch (err) {
        if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
          throw fieldError("email", "already has an account: sign in first, then open this link again");
        }
        throw err;
      }
    } else {
      userId = (who as { userId: string }).userId;
      if (await tx.membership.findUnique({ where: { teamId_userId: { teamId: inv.teamId, userId } } })) {
        throw fieldError("invitation", "you are already a member of this team");
      }
    }
    const membership = await tx.membership.create({ data: { teamId: inv.teamId, userId, role: inv.role } });
    await tx.invitation.update({ where: { id: inv.id }, data: { acceptedById: userId } });
    await recordAudit({ teamId: inv.teamId, by: { kind: "user", id: userId }, action: "member.joined", target: { type: "membership", id: membership.id }, after: { role: inv.role, invitationId: inv.id } }, tx);
    return { userId, teamId: inv.teamId, role: inv.role };
  });
}
