import { actorForToken } from "@/lib/auth/actor";
import { DomainError, INTERNAL } from "@/lib/errors";
import { getLogger } from "@/lib/log";
import { mcpWiring } from "@/lib/agents/mcp-config";
import { SANDBOX_HOME } from "@/lib/sandbox/bwrap";
import type { McpServe } from "@/lib/sandbox/mcp-gateway";
import type { SandboxSession } from "@/lib/sandbox/session";
import { serveAgentMcp } from "@/lib/threads/mcp-http";

const error = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

/**
 * `/api/mcp` for one run's gateway: the same tools and the same token check (a revoked or
 * expired run token is refused), answered by the worker that runs the agent, which the
 * sandbox can reach where the web port is never reachable.
 */
export function runMcpServe(): McpServe {
  return async (req) => {
    try {
      const actor = await actorForToken(req.headers.get("authorization")?.slice("Bearer ".length) ?? "");
      if (!actor) return error(401, "unauthenticated", "the run's token is no longer valid");
      return await serveAgentMcp(req, actor);
    } catch (err) {
      if (err instanceof DomainError && err.code !== INTERNAL) return error(err.status, err.code, err.message);
      getLogger("mcp").error({ err: (err as Error).message }, "MCP gateway request failed");
      return error(500, INTERNAL, "internal error");
    }
  };
}

/**
 * Points the run's CLI at the MCP endpoint its sandbox reaches, through the CLI's own flags and
 * files written into the run's private HOME (never a user's config). `wired` is false where the
 * CLI has no MCP support or the run has no gateway; a shell command still finds the URL in
 * RINGMASTER_MCP_URL when there is one.
 */
export async function wireMcp(session: SandboxSession, adapter: string): Promise<{ wired: boolean; args: string[]; env: Record<string, string> }> {
  if (!session.mcpUrl) return { wired: false, args: [], env: {} };
  const env = { RINGMASTER_MCP_URL: session.mcpUrl };
  const wiring = mcpWiring(adapter, session.mcpUrl, SANDBOX_HOME);
  if (!wiring) return { wired: false, args: [], env };
  for (const file of wiring.files) await session.writeHomeFile(file.path, file.content);
  return { wired: true, args: wiring.args, env: { ...wiring.env, ...env } };
}
