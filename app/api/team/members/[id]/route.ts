import { z } from "zod";
import { changeMemberRole, removeMember } from "@/lib/teams/members";
import { roleField } from "@/lib/auth/access";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

type Ctx = { params: Promise<{ id: string }> };
const body = z.object({ role: roleField });

export const PATCH = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const input = body.parse(await readJson(req));
  return Response.json({ member: await changeMemberRole(actor, (await params).id, input.role) });
});

export const DELETE = handle(async (req, { params }: Ctx) => {
  await removeMember(await requireActor(req), (await params).id);
  return new Response(null, { status: 204 });
});
