import { notFound } from "next/navigation";
import { actorForUser } from "@/lib/auth/actor";
import { requireViewer } from "../current";

/** The signed-in viewer as an Actor, for the same lib calls the API makes. */
export async function requirePageActor() {
  const viewer = await requireViewer();
  const actor = await actorForUser(viewer.userId, viewer.team.id);
  if (!actor) notFound();
  return { viewer, actor };
}
