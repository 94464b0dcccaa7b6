import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { auth } from "@/auth";
import { AccessError } from "@/lib/auth/access";
import { actorForUser } from "@/lib/auth/actor";
import { listMemberships } from "@/lib/teams/membership";
import { TEAM_COOKIE } from "@/lib/teams/current";

/** The signed-in user and their current team, or a redirect to the login page. */
export async function requireViewer() {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) redirect("/login");
  const memberships = await listMemberships(userId);
  // The team chosen in the switcher, when the person still belongs to it; else their first.
  const chosen = (await cookies()).get(TEAM_COOKIE)?.value;
  const current = memberships.find((m) => m.teamId === chosen) ?? memberships[0];
  if (!current) redirect("/login");
  const teams = memberships.map((m) => ({ id: m.team.id, name: m.team.name, role: m.role }));
  return { userId, email: session.user?.email ?? "", team: current.team, role: current.role, teams };
}

/** The signed-in viewer as an Actor, for the same lib calls and access checks the API makes. */
export async function requirePageActor() {
  const viewer = await requireViewer();
  const actor = await actorForUser(viewer.userId, viewer.team.id);
  if (!actor) notFound();
  return { viewer, actor };
}

/** A lib access check on a page: what the API answers with 404 is the not-found page. */
export async function orNotFound<T>(check: Promise<T>): Promise<T> {
  try {
    return await check;
  } catch (err) {
    if (err instanceof AccessError && err.status === 404) notFound();
    throw err;
  }
}
