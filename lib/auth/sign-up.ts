import { getDb } from "@/lib/db";
import { hashPassword } from "@/lib/auth/password";
import { signUpInput, type SignUpInput } from "@/lib/auth/schemas";
import { recordAudit } from "@/lib/audit/record";
import { slugify } from "@/lib/slug";
import { DomainError } from "@/lib/errors";

/** A fresh install: no user yet, so the first to sign up becomes the owner. */
export async function isFirstRun(): Promise<boolean> {
  return (await getDb().user.count()) === 0;
}

export class SignUpClosed extends DomainError {
  constructor(message: string) {
    super(409, "signup_closed", message);
  }
}

/** Creates the first user as owner of the first team; refuses once anyone exists. */
export async function createFirstOwner(raw: SignUpInput) {
  const input = signUpInput.parse(raw);
  const passwordHash = await hashPassword(input.password);
  return getDb().$transaction(async (tx) => {
    // Two sign-ups racing on a fresh install: the lock makes the second see the first.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('ringmaster:first-user'))`;
    if ((await tx.user.count()) > 0) throw new SignUpClosed("sign-up is closed: this install already has users");
    const user = await tx.user.create({ data: { email: input.email, name: input.name, passwordHash } });
    const team = await tx.team.create({
      data: { name: input.teamName, slug: slugify(input.teamName) || "team", memberships: { create: { userId: user.id, role: "owner" } } },
    });
    await recordAudit({ teamId: team.id, by: { kind: "user", id: user.id }, action: "team.created", target: { type: "team", id: team.id }, after: { name: team.name, owner: user.email } }, tx);
    return { user: { id: user.id, email: user.email, name: user.name }, team };
  });
}

