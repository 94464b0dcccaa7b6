import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { requireAgentRun } from "@/lib/threads/agent-run";
import { agentMcpServer } from "@/lib/threads/mcp";
import { handle, requireActor } from "@/app/api/_lib/handler";

/**
 * The Model Context Protocol over Streamable HTTP for agent runs, authenticated by the run's token.
 * Stateless (a server per request, JSON answers): any web instance answers any call.
 */
export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  const run = await requireAgentRun(actor);
  const server = agentMcpServer(actor, run);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const res = await transport.handleRequest(req);
  void server.close();
  return res;
});

export const GET = handle(async () => new Response(null, { status: 405, headers: { allow: "POST" } }));
