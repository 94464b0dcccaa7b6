import { randomBytes } from "node:crypto";
import { z } from "zod";
import { getDb, Prisma } from "@/lib/db";
import { recordAudit } from "@/lib/audit/record";
import { slugify } from "@/lib/slug";

export const teamInput = z.object({
  name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
});
export type TeamInput = z.input<typeof teamInput>;

/** A new team with the person as its owner; team names may repeat, so the slug gets a suffix when taken. */
export async function createTeam(userId: string, raw: TeamInput) {
  const { name } = teamInput.parse(raw);
  const base = slugify(name) || "team";
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 ? base : `${base.slice(0, 43)}-${randomBytes(3).toString("hex")}`;
    try {
      return await getDb().$transaction(async (tx) => {
        const team = await tx.team.create({ data: { name, slug, memberships: { create: { userId, role: "owner" } } } });
        await recordAudit({ teamId: team.id, by: { kind: "user", id: userId }, action: "team.created", target: { type: "team", id: team.id }, after: { name } }, tx);
        return team;
      });
    } catch (err) {
      const taken = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
      if (!taken || attempt >= 5) throw err;
    }
  }
}
