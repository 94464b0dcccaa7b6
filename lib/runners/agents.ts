import { z } from "zod";
import { getDb, type AgentModel as Agent } from "@/lib/db";
import type { RunnerCaller } from "@/lib/auth/runner-tokens";
import { DomainError, ControlError } from "@/lib/errors";
import { wholeNumber } from "@/lib/validation/numbers";
import { Prisma } from "@/lib/db";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const AGENT_HEADER = "X-Agent-ID";

const capability = z.string().trim().min(1, "must not be empty").max(50, "must be at most 50 characters").regex(/^[\w.*:-]+$/, "may only contain letters, digits and _ . * : -");

// Printable text without control characters: it is shown on the Agents page.
const shown = (max: number) => z.string({ error: "must be a string" }).min(1, "must not be empty").max(max, `must be at most ${max} characters`)
  .regex(/^[^\u0000-\u001f\u007f]+$/, "must not contain control characters");

/** One agent CLI the runner found on its agents' PATH (lib/agents/installed.ts `detectClis`). */
export const reportedCli = z.object({
  adapter: z.string({ error: "must be a string" }).regex(/^[a-z][a-z0-9-]{0,39}$/, "must be an adapter name (lowercase letters, digits and -, at most 40)"),
  path: shown(1000),
  version: shown(200).nullable().default(null),
});
export type ReportedCli = z.infer<typeof reportedCli>;

export const registration = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
  role: z.enum(["lead", "worker"], { error: "must be lead or worker" }).default("worker"),
  capabilities: z.array(capability).max(50, "must list at most 50").default([]),
  maxConcurrent: wholeNumber(1, 32).default(1),
  // Absent from a runner older than the report: it says nothing of its CLIs.
  clis: z.array(reportedCli, { error: "must be an array of { adapter, path, version }" }).max(50, "must list at most 50").optional(),
}).superRefine((v, ctx) => {
  const seen = new Set<string>();
  v.clis?.forEach((c, i) => {
    if (seen.has(c.adapter)) ctx.addIssue({ code: "custom", path: ["clis", i, "adapter"], message: `lists ${c.adapter} twice` });
    seen.add(c.adapter);
  });
});
export type Registration = z.input<typeof registration>;

export const agentStatus = z.object({ status: z.enum(["idle", "busy"], { error: "must be idle or busy" }) });

/** The agent id a runner sent: a UUID it keeps across restarts. */
export function requireAgentId(header: string | null): string {
  if (!header) throw new DomainError(400, "invalid", `${AGENT_HEADER} header is required (a UUID the runner keeps)`, AGENT_HEADER);
  if (!UUID.test(header)) throw new DomainError(400, "invalid", `${AGENT_HEADER} must be a UUID`, AGENT_HEADER);
  return header.toLowerCase();
}

/** The CLIs a runner reported, as stored (written only through `registration`). */
export const runnerClis = (a: Pick<Agent, "clis">): ReportedCli[] => (Array.isArray(a.clis) ? (a.clis as ReportedCli[]) : []);

export const agentView = (a: Agent) => ({
  id: a.id, name: a.name, role: a.role, capabilities: a.capabilities, maxConcurrent: a.maxConcurrent,
  status: a.status, projectId: a.projectId, lastSeenAt: a.lastSeenAt, createdAt: a.createdAt, clis: runnerClis(a),
});
export type AgentView = ReturnType<typeof agentView>;

const visibleTo = (caller: RunnerCaller) => ({ teamId: caller.teamId, ...(caller.projectId ? { projectId: caller.projectId } : {}) });

/**
 * Registers a runner's agent. The same id again is not an error for the runner: it gets the
 * existing agent back (`created: false`, answered 409) and carries on.
 */
export async function registerAgent(caller: RunnerCaller, id: string, raw: unknown, now = new Date()): Promise<{ created: boolean; agent: AgentView }> {
  const input = registration.parse(raw ?? {});
  const db = getDb();
  const existing = await db.agent.findUnique({ where: { id } });
  if (existing) {
    if (existing.teamId !== caller.teamId || (caller.projectId && existing.projectId !== caller.projectId)) {
      throw new ControlError(AGENT_HEADER, "is already used by another runner");
    }
    // A restarted runner says again which CLIs it has: they may have changed since.
    const seen = await db.agent.update({ where: { id }, data: { lastSeenAt: now, status: "idle", ...(input.clis ? { clis: input.clis } : {}) } });
    return { created: false, agent: agentView(seen) };
  }
  const name = input.name ?? `${input.role}-${id.slice(0, 8)}`;
  try {
    const agent = await db.agent.create({
      data: {
        id, teamId: caller.teamId, projectId: caller.projectId, tokenId: caller.tokenId, name, role: input.role,
        capabilities: [...new Set(input.capabilities)], maxConcurrent: input.maxConcurrent, status: "idle", lastSeenAt: now, clis: input.clis ?? [],
      },
    });
    return { created: true, agent: agentView(agent) };
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") throw new ControlError("name", "is already used by another runner of this team");
    throw err;
  }
}

/** The caller's agent, marked seen; another team's or another project's agent does not exist (404). */
export async function requireAgent(caller: RunnerCaller, header: string | null, now = new Date()): Promise<Agent> {
  const id = requireAgentId(header);
  const db = getDb();
  const n = await db.agent.updateMany({ where: { id, ...visibleTo(caller) }, data: { lastSeenAt: now } });
  if (n.count !== 1) throw new DomainError(404, "not_found", "agent not found: register it first (POST /api/agents)");
  return db.agent.findUniqueOrThrow({ where: { id } });
}

/** An agent's inbox, as the seed's `/me?include=inbox` shows it. */
export async function agentInbox(agent: Agent, now = new Date()) {
  const db = getDb();
  const pool = { remote: true, status: "queued" as const, remoteAgentId: null, project: { teamId: agent.teamId, archivedAt: null, ...(agent.projectId ? { id: agent.projectId } : {}) } };
  const [offered, assigned, inProgress, poolCount, mentions] = await Promise.all([
    db.taskOffer.count({ where: { agentId: agent.id, status: { in: ["offered", "delivered"] }, expiresAt: { gt: now } } }),
    db.run.count({ where: { remoteAgentId: agent.id, status: "queued" } }),
    db.run.count({ where: { remoteAgentId: agent.id, status: { in: ["starting", "running"] } } }),
    agent.role === "worker" ? db.run.count({ where: pool }) : Promise.resolve(0),
    // Unread @mentions of the agent in open threads of its projects (its unread_mention triggers).
    db.turn.count({ where: { mentionsAgentId: agent.id, mentionReadAt: null, thread: { closedAt: null, project: pool.project } } }),
  ]);
  return { offered, assigned, pool: poolCount, mentions, inProgress };
}

export async function setAgentStatus(agent: Agent, raw: unknown): Promise<AgentView> {
  const { status } = agentStatus.parse(raw ?? {});
  return agentView(await getDb().agent.update({ where: { id: agent.id }, data: { status } }));
}

/** Offline: the agent gets no triggers until it polls again. */
export async function closeAgent(agent: Agent): Promise<AgentView> {
  return agentView(await getDb().agent.update({ where: { id: agent.id }, data: { status: "offline" } }));
}
