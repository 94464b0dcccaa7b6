/**
 * Who a request from Slack or GitHub is for. The prefix word `rm#` names agents explicitly: `rm#<agent id>`
 * or `rm#all`. The rules apply in this order, the first that matches decides:
 *   1. `rm#<agent id>`                 → that agent (an id the team does not have is refused)
 *   2. `rm#all`                        → every worker agent (never the lead)
 *   3. one agent named (≥ 3 characters) → that agent
 *   4. several agents named            → the lead, to decide
 *   5. a reply in a Slack thread where an agent is working → that agent, mention or not
 *   6. a bare mention of the bot       → the lead
 * An offline target is replaced by the lead. Anything else is not for us (no answer).
 */
export const RM_PREFIX = "rm#";
export const MIN_NAME_CHARS = 3;

export interface RoutableAgent { id: string; name: string; role: "lead" | "worker"; online: boolean }

export interface RouteInput {
  /** The message text with the bot's own mention already taken out. */
  text: string;
  mentionsBot: boolean;
  agents: RoutableAgent[];
  /** The agent working on the Slack thread this message replies in, if any. */
  threadAgentId: string | null;
}

export type Rule = "agent id" | "all" | "name" | "several names" | "thread follow-up" | "bot mention";
/** `agentId` null is the lead. */
export type Target = { agentId: string | null; rule: Rule; offline?: boolean };
export type Route = { kind: "targets"; targets: Target[] } | { kind: "refused"; message: string } | { kind: "none" };

const ID_TOKEN = /rm#([A-Za-z0-9_-]+)/gi;
const WORD = /[\p{L}\p{N}_-]+/gu;

// An offline agent would never pick its work up: the lead gets it instead, said so. A runner
// registered as a lead is the lead: its work is a turn in the lead's thread.
function reach(agent: RoutableAgent, rule: Rule): Target {
  if (agent.role === "lead") return { agentId: null, rule };
  return agent.online ? { agentId: agent.id, rule } : { agentId: null, rule, offline: true };
}

function unique(targets: Target[]): Target[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const key = t.agentId ?? "lead";
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * An agent is named when a word of the message (≥ 3 characters) is its name or the start of
 * it, case-insensitively: "review" names "reviewer-2". Words inside `rm#…` tokens do not count.
 */
export function namedAgents(text: string, agents: RoutableAgent[]): RoutableAgent[] {
  const words = (text.replace(ID_TOKEN, " ").match(WORD) ?? []).map((w) => w.toLowerCase()).filter((w) => w.length >= MIN_NAME_CHARS);
  return agents.filter((a) => a.name.length >= MIN_NAME_CHARS && words.some((w) => a.name.toLowerCase().startsWith(w)));
}

export function routeMessage({ text, mentionsBot, agents, threadAgentId }: RouteInput): Route {
  const ids = [...text.matchAll(ID_TOKEN)].map((m) => m[1]);
  const explicit = ids.filter((id) => id.toLowerCase() !== "all");
  if (explicit.length) {
    const unknown = explicit.filter((id) => !agents.some((a) => a.id === id));
    if (unknown.length) return { kind: "refused", message: `I know no agent with id ${unknown.map((id) => `\`${id.slice(0, 64)}\``).join(", ")}. Use \`${RM_PREFIX}<agent id>\` with an id from the Runners page, or \`${RM_PREFIX}all\`.` };
    return { kind: "targets", targets: unique(explicit.map((id) => reach(agents.find((a) => a.id === id)!, "agent id"))) };
  }
  if (ids.length) {
    const workers = agents.filter((a) => a.role === "worker");
    if (!workers.length) return { kind: "targets", targets: [{ agentId: null, rule: "all" }] };
    return { kind: "targets", targets: unique(workers.map((a) => reach(a, "all"))) };
  }
  const named = namedAgents(text, agents);
  if (named.length === 1) return { kind: "targets", targets: [reach(named[0], "name")] };
  if (named.length > 1) return { kind: "targets", targets: [{ agentId: null, rule: "several names" }] };
  const working = threadAgentId ? agents.find((a) => a.id === threadAgentId) : undefined;
  if (working) return { kind: "targets", targets: [reach(working, "thread follow-up")] };
  if (mentionsBot) return { kind: "targets", targets: [{ agentId: null, rule: "bot mention" }] };
  return { kind: "none" };
}
