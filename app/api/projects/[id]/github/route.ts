import { connectProject, disconnectProject, getProjectConnection } from "@/lib/github/connection";
import { apiError, handle, readJson, requireActor } from "@/app/api/_lib/handler";
import type { ConnectionInput } from "@/lib/github/connection-schema";
import { setMentionLogin } from "@/lib/github/mention-settings";
import type { MentionSettingsInput } from "@/lib/github/mention-text";

type Ctx = { params: Promise<{ id: string }> };

export const GET = handle(async (req, { params }: Ctx) => {
  const connection = await getProjectConnection(await requireActor(req), (await params).id);
  return connection ? Response.json(connection) : apiError(404, "not_found", "the project has no GitHub connection");
});

export const PUT = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const body = (await readJson(req)) as ConnectionInput;
  return Response.json(await connectProject(actor, (await params).id, body), { status: 201 });
});

// Settings of the connection that need no new credentials: the bot login people mention.
export const PATCH = handle(async (req, { params }: Ctx) => {
  const actor = await requireActor(req);
  const body = (await readJson(req)) as MentionSettingsInput;
  return Response.json(await setMentionLogin(actor, (await params).id, body));
});

export const DELETE = handle(async (req, { params }: Ctx) => {
  await disconnectProject(await requireActor(req), (await params).id);
  return new Response(null, { status: 204 });
});
