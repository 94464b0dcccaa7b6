import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Actor } from "@/lib/auth/actor";
import { requireAgentRun } from "@/lib/threads/agent-run";
import { agentMcpServer } from "@/lib/threads/mcp";

/**
 * One MCP request of an agent run over Streamable HTTP. Stateless (a server per request, JSON
 * answers): any web instance, or the gateway of the worker running the agent, answers any call.
 */
export async function serveAgentMcp(req: Request, actor: Actor): Promise<Response> {
  const run = await requireAgentRun(actor);
  if (req.method !== "POST") return new Response(null, { status: 405, headers: { allow: "POST" } });
  const server = agentMcpServer(actor, run);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const res = await transport.handleRequest(req);
  void server.close();
  return res;
}
