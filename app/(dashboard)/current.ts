import { notFound, redirect } from "next/navigation";
import { auth } from "@/auth";
import { AccessError } from "@/lib/auth/access";
import { actorForUser } from "@/lib/auth/actor";
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
