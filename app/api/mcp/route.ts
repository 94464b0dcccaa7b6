import { serveAgentMcp } from "@/lib/threads/mcp-http";
import { handle, requireActor } from "@/app/api/_lib/handler";

/** The Model Context Protocol over Streamable HTTP for agent runs, authenticated by the run's token. */
const serve = handle(async (req) => serveAgentMcp(req, await requireActor(req)));

export const POST = serve;
export const GET = serve;
export const DELETE = serve;
