import { getDb } from "@/lib/db";

/** The teams a user belongs to, oldest membership first. */
export async function listMemberships(userId: string) {
  return getDb().membership.findMany({
    where: { userId },
    include: { team: true },
    orderBy: { createdAt: "asc" },
  });
}
