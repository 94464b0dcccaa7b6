import { describe, expect, it } from "vitest";
import { namedAgents, routeMessage, type RoutableAgent, type Route } from "@/lib/routing/route";

const agents: RoutableAgent[] = [
  { id: "a-backend", name: "backend", role: "worker", online: true },
  { id: "a-frontend", name: "frontend", role: "worker", online: true },
  { id: "a-fixer", name: "fixer-2", role: "worker", online: true },
  { id: "a-sleepy", name: "sleepy", role: "worker", online: false },
  { id: "a-boss", name: "boss", role: "lead", online: true },
  { id: "a-ab", name: "ab", role: "worker", online: true },
];

const to = (...targets: Array<[string | null, string, boolean?]>): Route =>
  ({ kind: "targets", targets: targets.map(([agentId, rule, offline]) => ({ agentId, rule, ...(offline ? { offline } : {}) })) }) as Route;

describe("routeMessage: the rules in order", () => {
  it.each([
    ["rm#<id> → that agent", "please rm#a-backend fix the build", false, null, to(["a-backend", "agent id"])],
    ["rm#<id> twice → once", "rm#a-backend and again rm#a-backend", false, null, to(["a-backend", "agent id"])],
    ["two ids → both", "rm#a-backend rm#a-frontend", false, null, to(["a-backend", "agent id"], ["a-frontend", "agent id"])],
    ["rm#<id> wins over a name", "rm#a-frontend ask backend", true, null, to(["a-frontend", "agent id"])],
    ["rm#<id> wins over the thread's agent", "rm#a-frontend", false, "a-backend", to(["a-frontend", "agent id"])],
    ["rm#all → every worker, offline ones to the lead, never the lead itself", "rm#all update deps", false, null,
      to(["a-backend", "all"], ["a-frontend", "all"], ["a-fixer", "all"], [null, "all", true], ["a-ab", "all"])],
    ["rm#ALL is rm#all", "RM#ALL go", false, null,
      to(["a-backend", "all"], ["a-frontend", "all"], ["a-fixer", "all"], [null, "all", true], ["a-ab", "all"])],
    ["a name → that agent", "backend: the login page 500s", false, null, to(["a-backend", "name"])],
    ["a name's start of ≥ 3 characters → that agent", "fix the footer please", true, null, to(["a-fixer", "name"])],
    ["a name in any case", "BACKEND is slow", true, null, to(["a-backend", "name"])],
    ["two characters name nobody", "ab do this", true, null, to([null, "bot mention"])],
    ["several names → the lead", "backend and frontend disagree", true, null, to([null, "several names"])],
    ["a name wins over the thread's agent", "frontend, take this", false, "a-backend", to(["a-frontend", "name"])],
    ["a reply in a thread with a working agent → that agent, without a mention", "also the header", false, "a-backend", to(["a-backend", "thread follow-up"])],
    ["a reply in a thread whose agent went offline → the lead", "and this", false, "a-sleepy", to([null, "thread follow-up", true])],
    ["a bare mention → the lead", "what is going on?", true, null, to([null, "bot mention"])],
    ["an offline agent named → the lead", "sleepy wake up", false, null, to([null, "name", true])],
    ["the lead runner named → the lead", "boss what now", false, null, to([null, "name"])],
    ["no mention, no name, no thread → nothing", "lunch anyone?", false, null, { kind: "none" }],
  ] as const)("%s", (_name, text, mentionsBot, threadAgentId, expected) => {
    expect(routeMessage({ text, mentionsBot, agents, threadAgentId })).toEqual(expected);
  });

  it("refuses an unknown agent id, naming it", () => {
    expect(routeMessage({ text: "rm#nobody do it", mentionsBot: true, agents, threadAgentId: null })).toEqual({
      kind: "refused", message: "I know no agent with id `nobody`. Use `rm#<agent id>` with an id from the Runners page, or `rm#all`.",
    });
  });

  it("rm#all with no worker agents goes to the lead", () => {
    expect(routeMessage({ text: "rm#all", mentionsBot: false, agents: [agents[4]], threadAgentId: null })).toEqual(to([null, "all"]));
  });

  it("words inside rm# tokens name nobody", () => {
    expect(namedAgents("rm#all", [{ id: "x", name: "allison", role: "worker", online: true }])).toEqual([]);
  });
});
