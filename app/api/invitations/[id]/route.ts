import { revokeInvitation } from "@/lib/teams/invitations";
import { handle, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };

export const DELETE = handle(async (req, { params }: Ctx) =>
  Response.json({ invitation: await revokeInvitation(await requireActor(req), (await params).id) }));
