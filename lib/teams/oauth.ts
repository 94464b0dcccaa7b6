import { getDb } from "@/lib/db";
import { getInvitation } from "@/lib/teams/invitations";

/**
 * An OAuth sign-in is let in when the provider account is already linked to a user, or
 * when it arrives carrying an open invitation (the invitation page sets it). Anyone else
 * would get a user without a team.
 */
export async function mayUseOAuth(provider: string, providerAccountId: string, email: string | null | undefined, inviteToken?: string): Promise<boolean> {
  const linked = await getDb().account.findUnique({ where: { provider_providerAccountId: { provider, providerAccountId } }, select: { id: true } });
  if (linked) return true;
  if (!inviteToken) return false;
  const inv = await getInvitation(inviteToken);
  return inv?.state === "open" && (!inv.email || inv.email === email?.toLowerCase());
}

export const INVITE_COOKIE = "rm_invite";
