import { redirect } from "next/navigation";
import { auth } from "@/auth";
import { listMemberships } from "@/lib/teams/membership";

/** The signed-in user and their current team, or a redirect to the login page. */
export async function requireViewer() {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) redirect("/login");
  const memberships = await listMemberships(userId);
  const current = memberships[0];
  if (!current) redirect("/login");
  return { userId, email: session.user?.email ?? "", team: current.team, role: current.role };
}
