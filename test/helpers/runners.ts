import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db";
import { issueSecret } from "@/lib/auth/tokens";
import { claimPromptForRun } from "@/lib/runs/claim";
import { POST as register } from "@/app/api/runner/agents/route";
import { addPrompt } from "./fixtures";

/** A runner token of a team (or one project), as an admin creates it on the Team page. */
export async function runnerToken(teamId: string, projectId?: string): Promise<string> {
  const { token, prefix, tokenHash } = issueSecret("runner");
  await getDb().apiToken.create({ data: { kind: "runner", teamId, projectId, role: "operator", name: "runner", tokenHash, prefix } });
  return token;
}

/** A request of a runner: its token and its agent id. */
export function runnerRequest(method: string, path: string, token: string | null, agentId: string | null, body?: unknown): Request {
  return new Request(`http://localhost${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(agentId ? { "x-agent-id": agentId } : {}),
      "content-type": "application/json",
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

const noParams = { params: Promise.resolve({}) };

/** Registers a new agent with the token; returns its id. */
export async function registeredAgent(token: string, body: Record<string, unknown> = {}): Promise<string> {
  const id = randomUUID();
  const res = await register(runnerRequest("POST", "/api/runner/agents", token, id, body), noParams);
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
  return id;
}

/** A prompt whose run waits in the runners' pool, as the tick leaves it for a project on runners. */
export async function poolRun(project: { id: string }, profile: { id: string; adapter: string; model: string | null; fallbackModel: string | null }, number: number, domain?: string) {
  const prompt = await addPrompt(project.id, { number, title: `Task ${number}`, body: `Do task ${number}` });
  if (domain) await getDb().prompt.update({ where: { id: prompt.id }, data: { domain } });
  const claimed = await claimPromptForRun({ projectId: project.id, promptId: prompt.id, profile, routing: {}, now: new Date(), limits: { maxExecutors: 50, cooldownMs: 0 }, remote: true });
  return { prompt, run: claimed!.run };
}
