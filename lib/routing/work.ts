import type { RoutableAgent, Target } from "@/lib/routing/route";

/** What one routed request became for one target: a worker's prompt or a turn in a thread. */
export interface Work { target: string; agentId: string | null; promptId: string | null; threadId: string | null }

/** How the place a request came from links to a prompt or a thread (Slack and GitHub write links differently). */
export type Links = { prompt: (id: string) => string; thread: (id: string) => string };

/** The answer to a routed request, one line per target: where its work went, and why if not where asked. */
export function describeWork(work: Work[], targets: Target[], agents: RoutableAgent[], links: Links): string {
  return work.map((w, i) => {
    const t = targets[i];
    const who = w.agentId ? agents.find((a) => a.id === w.agentId)!.name : "the lead";
    const why = t.offline ? " (the agent you asked for is offline)" : "";
    return w.promptId && w.target !== "lead" && t.rule !== "thread follow-up"
      ? `Queued for ${who}${why}: ${links.prompt(w.promptId)}`
      : `Passed to ${who}${why} in ${links.thread(w.threadId!)}`;
  }).join("\n");
}
