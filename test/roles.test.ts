// Every mutating endpoint, walked with each role, a member of another team, and a token
// scoped to another project. Add a row to `endpoints` when you add an endpoint.
import { afterAll, describe, expect, it, beforeAll } from "vitest";
import { getDb, type TeamRole } from "@/lib/db";
import { hashToken } from "@/lib/auth/tokens";
import { POST as postLoop } from "@/app/api/projects/[id]/loop/route";
import { POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { POST as postCampaign } from "@/app/api/projects/[id]/campaigns/route";
import { POST as controlCampaign } from "@/app/api/campaigns/[id]/route";
import { PATCH as patchMember, DELETE as deleteMember } from "@/app/api/team/members/[id]/route";
import { POST as postInvitation } from "@/app/api/invitations/route";
import { DELETE as deleteInvitation } from "@/app/api/invitations/[id]/route";
import { POST as postToken } from "@/app/api/tokens/route";
import { DELETE as deleteToken } from "@/app/api/tokens/[id]/route";
import { POST as decide } from "@/app/api/approvals/[id]/route";
import { PATCH as patchPolicy } from "@/app/api/approvals/policy/[id]/route";
import { POST as postProject } from "@/app/api/projects/route";
import { PATCH as patchProject, DELETE as archiveProject } from "@/app/api/projects/[id]/route";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { POST as importPrompts } from "@/app/api/projects/[id]/prompts/import/route";
import { PATCH as patchPrompt } from "@/app/api/prompts/[id]/route";
import { POST as promptAction } from "@/app/api/prompts/[id]/actions/route";
import { POST as cancelRun } from "@/app/api/runs/[id]/cancel/route";
import { POST as discardRun } from "@/app/api/runs/[id]/discard/route";
import { createWorktree } from "@/lib/git";
import { POST as offerToRunner } from "@/app/api/runners/[id]/offers/route";
import { POST as postProfile } from "@/app/api/agent-profiles/route";
import { DELETE as deleteProfile, PATCH as patchProfile } from "@/app/api/agent-profiles/[id]/route";
import { DELETE as disconnectGithub, PATCH as patchGithub } from "@/app/api/projects/[id]/github/route";
import { POST as setCredential } from "@/app/api/team/credentials/route";
import { POST as budgetOverride } from "@/app/api/projects/[id]/budget-override/route";
import { PATCH as patchTeamBudget } from "@/app/api/team/budget/route";
import { DELETE as deleteCredential } from "@/app/api/team/credentials/[name]/route";
import { POST as postThread } from "@/app/api/threads/route";
import { POST as postTurn } from "@/app/api/threads/[id]/turns/route";
import { encryptSecret } from "@/lib/crypto/secrets";
import { PUT as putSlack, DELETE as deleteSlack } from "@/app/api/team/slack/route";
import { PUT as mapChannel } from "@/app/api/team/slack/channels/route";
import { DELETE as unmapChannel } from "@/app/api/team/slack/channels/[channelId]/route";
import { BOT_TOKEN, SIGNING_SECRET, startSlackDouble } from "./helpers/slack-fixtures";
import { createDemoRepo } from "@/lib/demo/repo";
import { addMember, createTeamWithProject, tempRepoPath } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const noParams = { params: Promise.resolve({}) };
const walkRepo = createDemoRepo(tempRepoPath("walk"));
process.env.ENCRYPTION_KEY ??= "5e".repeat(32);

type Fixture = Awaited<ReturnType<typeof createTeamWithProject>>;

const slack = await startSlackDouble();
afterAll(() => slack.stop());
let seq = 0;
const unique = () => `${Date.now()}-${++seq}`;

async function pendingApproval(f: Fixture) {
  const n = 1000 + ++seq;
  const prompt = await getDb().prompt.create({
    data: { projectId: f.project.id, planningKey: f.project.planningKey, number: n, title: `needs approval ${n}`, body: "", approval: "pending" },
  });
  return getDb().approval.create({ data: { teamId: f.team.id, projectId: f.project.id, kind: "prompt_run", promptId: prompt.id, requestedBy: "system" } });
}

interface Endpoint {
  name: string;
  /** The lowest role that may call it. */
  min: TeamRole;
  /** Makes what the call acts on (in the fixture's team) and returns its id. */
  setup: (f: Fixture) => Promise<string>;
  call: (id: string, token: string) => Promise<Response>;
  /** What must not change when the call is refused. */
  state: (id: string) => Promise<unknown>;
  /** A team-wide endpoint without an object in the path: another team's member acts on their own team. */
  teamWide?: boolean;
}

async function pendingPrompt(f: Fixture) {
  const n = 2000 + ++seq;
  return getDb().prompt.create({ data: { projectId: f.project.id, planningKey: f.project.planningKey, number: n, title: `walk ${n}`, body: "" } });
}

/** The team's Slack connection, made directly when the walk needs one to exist. */
const slackConnectionOf = (teamId: string) => getDb().slackConnection.upsert({
  where: { teamId }, update: {},
  create: { teamId, workspaceId: slack.workspace.id, botUserId: slack.botUserId, encryptedBotToken: encryptSecret(BOT_TOKEN), encryptedSigningSecret: encryptSecret(SIGNING_SECRET) },
});

const endpoints: Endpoint[] = [
  {
    name: "POST /api/projects", min: "admin", teamWide: true,
    setup: async (f) => f.team.id,
    call: (_id, t) => postProject(request("POST", "/api/projects", t, { name: `walk ${unique()}`, repoKind: "local", repoPath: walkRepo, baseBranch: "main" }), noParams),
    state: (teamId) => getDb().project.count({ where: { teamId } }),
  },
  {
    name: "PATCH /api/projects/:id", min: "admin",
    setup: async (f) => f.project.id,
    call: (id, t) => patchProject(request("PATCH", `/api/projects/${id}`, t, { name: `renamed ${unique()}` }), params(id)),
    state: async (id) => (await getDb().project.findUniqueOrThrow({ where: { id } })).name,
  },
  {
    name: "DELETE /api/projects/:id", min: "admin",
    setup: async (f) => (await getDb().project.create({
      data: { teamId: f.team.id, name: "to archive", slug: `to-archive-${unique()}`, repoKind: "local", repoPath: "/tmp/x", settings: { create: {} }, loopState: { create: {} } },
    })).id,
    call: (id, t) => archiveProject(request("DELETE", `/api/projects/${id}`, t), params(id)),
    state: async (id) => (await getDb().project.findUniqueOrThrow({ where: { id } })).archivedAt,
  },
  {
    name: "PATCH /api/projects/:id/settings", min: "admin",
    setup: async (f) => f.project.id,
    call: (id, t) => patchSettings(request("PATCH", `/api/projects/${id}/settings`, t, { maxAttempts: 1 + (seq++ % 9) }), params(id)),
    state: async (id) => (await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: id } })).maxAttempts,
  },
  {
    name: "PATCH /api/projects/:id/settings (budget)", min: "owner",
    setup: async (f) => f.project.id,
    call: (id, t) => patchSettings(request("PATCH", `/api/projects/${id}/settings`, t, { dailyBudgetUsd: 1 + (seq++ % 9) }), params(id)),
    state: async (id) => (await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: id } })).dailyBudgetUsd,
  },
  {
    name: "POST /api/projects/:id/budget-override", min: "owner",
    setup: async (f) => f.project.id,
    call: (id, t) => budgetOverride(request("POST", `/api/projects/${id}/budget-override`, t, { scope: "project", period: "day" }), params(id)),
    state: async (id) => getDb().budgetEvent.count({ where: { scope: id, kind: "override" } }),
  },
  {
    name: "PATCH /api/team/budget", min: "owner", teamWide: true,
    setup: async (f) => f.team.id,
    call: (_id, t) => patchTeamBudget(request("PATCH", "/api/team/budget", t, { dailyBudgetUsd: 1 + (seq++ % 9) }), noParams),
    state: async (teamId) => (await getDb().team.findUniqueOrThrow({ where: { id: teamId } })).dailyBudgetUsd,
  },
  {
    name: "POST /api/projects/:id/prompts/import", min: "operator",
    setup: async (f) => f.project.id,
    call: (id, t) => importPrompts(request("POST", `/api/projects/${id}/prompts/import`, t, { files: [{ name: `${3000 + ++seq}-x.md`, text: `---\nnumber: ${3000 + seq}\ntitle: imported\n---\nbody\n` }] }), params(id)),
    state: (id) => getDb().prompt.count({ where: { projectId: id } }),
  },
  {
    name: "PATCH /api/prompts/:id", min: "operator",
    setup: async (f) => (await pendingPrompt(f)).id,
    call: (id, t) => patchPrompt(request("PATCH", `/api/prompts/${id}`, t, { title: "edited" }), params(id)),
    state: async (id) => (await getDb().prompt.findUniqueOrThrow({ where: { id } })).title,
  },
  {
    name: "POST /api/prompts/:id/actions", min: "operator",
    setup: async (f) => (await pendingPrompt(f)).id,
    call: (id, t) => promptAction(request("POST", `/api/prompts/${id}/actions`, t, { action: "cancel" }), params(id)),
    state: async (id) => (await getDb().prompt.findUniqueOrThrow({ where: { id } })).status,
  },
  {
    name: "POST /api/runs/:id/cancel", min: "operator",
    setup: async (f) => (await getDb().run.create({ data: { projectId: f.project.id, kind: "executor", adapter: "demo", status: "running" } })).id,
    call: (id, t) => cancelRun(request("POST", `/api/runs/${id}/cancel`, t), params(id)),
    state: async (id) => (await getDb().run.findUniqueOrThrow({ where: { id } })).status,
  },
  {
    name: "POST /api/runs/:id/discard", min: "admin",
    setup: async (f) => {
      const branch = `ringmaster/walk-${unique()}`;
      const wt = await createWorktree({ repoPath: f.repoPath, path: `${tempRepoPath("wt")}`, branch, baseBranch: "main" });
      return (await getDb().run.create({ data: { projectId: f.project.id, kind: "executor", adapter: "demo", status: "succeeded", mergeStatus: "conflict", branch, worktreePath: wt.path, baseSha: wt.baseSha } })).id;
    },
    call: (id, t) => discardRun(request("POST", `/api/runs/${id}/discard`, t), params(id)),
    state: async (id) => (await getDb().run.findUniqueOrThrow({ where: { id } })).worktreePath,
  },
  {
    name: "POST /api/runners/:id/offers", min: "operator",
    setup: async (f) => {
      const agent = await getDb().agent.create({ data: { id: crypto.randomUUID(), teamId: f.team.id, name: `runner ${unique()}`, lastSeenAt: new Date(Date.now() + 3_600_000) } });
      const prompt = await getDb().prompt.create({ data: { projectId: f.project.id, planningKey: f.project.planningKey, number: 2000 + ++seq, title: "for a runner", body: "" } });
      await getDb().run.create({ data: { projectId: f.project.id, promptId: prompt.id, kind: "executor", adapter: "demo", remote: true } });
      return `${agent.id} ${prompt.id}`;
    },
    call: (ids, t) => {
      const [agentId, promptId] = ids.split(" ");
      return offerToRunner(request("POST", `/api/runners/${agentId}/offers`, t, { promptId }), params(agentId));
    },
    state: async (ids) => getDb().taskOffer.count({ where: { agentId: ids.split(" ")[0] } }),
  },
  {
    name: "DELETE /api/projects/:id/github", min: "admin",
    setup: async (f) => {
      const connection = await getDb().githubConnection.create({ data: { teamId: f.team.id, name: "acme/app", kind: "pat", encryptedToken: "x" } });
      return (await getDb().project.create({
        data: { teamId: f.team.id, name: "gh", slug: `gh-${unique()}`, repoKind: "github", githubOwner: "acme", githubRepo: "app", githubConnectionId: connection.id, settings: { create: {} }, loopState: { create: {} } },
      })).id;
    },
    call: (id, t) => disconnectGithub(request("DELETE", `/api/projects/${id}/github`, t), params(id)),
    state: async (id) => (await getDb().project.findUniqueOrThrow({ where: { id } })).githubConnectionId,
  },
  {
    name: "PATCH /api/projects/:id/github", min: "admin",
    setup: async (f) => {
      const connection = await getDb().githubConnection.create({ data: { teamId: f.team.id, name: "acme/app", kind: "pat", encryptedToken: "x" } });
      return (await getDb().project.create({
        data: { teamId: f.team.id, name: "gh", slug: `gh-${unique()}`, repoKind: "github", githubOwner: "acme", githubRepo: "app", githubConnectionId: connection.id, settings: { create: {} }, loopState: { create: {} } },
      })).id;
    },
    call: (id, t) => patchGithub(request("PATCH", `/api/projects/${id}/github`, t, { mentionLogin: `walker-${unique()}` }), params(id)),
    state: async (id) => (await getDb().project.findUniqueOrThrow({ where: { id }, include: { githubConnection: true } })).githubConnection?.mentionLogin ?? null,
  },
  {
    name: "POST /api/agent-profiles", min: "admin", teamWide: true,
    setup: async (f) => f.team.id,
    call: (_id, t) => postProfile(request("POST", "/api/agent-profiles", t, { name: `walk ${unique()}`, adapter: "demo" }), noParams),
    state: (teamId) => getDb().agentProfile.count({ where: { teamId } }),
  },
  {
    name: "PATCH /api/agent-profiles/:id", min: "admin",
    setup: async (f) => f.profile.id,
    call: (id, t) => patchProfile(request("PATCH", `/api/agent-profiles/${id}`, t, { name: `demo ${unique()}`, adapter: "demo" }), params(id)),
    state: async (id) => (await getDb().agentProfile.findUniqueOrThrow({ where: { id } })).name,
  },
  {
    name: "DELETE /api/agent-profiles/:id", min: "admin",
    setup: async (f) => (await getDb().agentProfile.create({ data: { teamId: f.team.id, name: `unused ${unique()}`, adapter: "demo" } })).id,
    call: (id, t) => deleteProfile(request("DELETE", `/api/agent-profiles/${id}`, t), params(id)),
    state: (id) => getDb().agentProfile.findUnique({ where: { id } }),
  },
  {
    name: "POST /api/projects/:id/loop", min: "operator",
    setup: async (f) => f.project.id,
    call: (id, t) => postLoop(request("POST", `/api/projects/${id}/loop`, t, { action: "parallel", enabled: false }), params(id)),
    state: async (id) => (await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: id } })).parallelEnabled,
  },
  {
    name: "POST /api/projects/:id/prompts", min: "operator",
    setup: async (f) => f.project.id,
    call: (id, t) => postPrompt(request("POST", `/api/projects/${id}/prompts`, t, { title: "walk" }), params(id)),
    state: (id) => getDb().prompt.count({ where: { projectId: id } }),
  },
  {
    name: "POST /api/projects/:id/campaigns", min: "operator",
    setup: async (f) => f.project.id,
    call: (id, t) => postCampaign(request("POST", `/api/projects/${id}/campaigns`, t, { goal: "walk" }), params(id)),
    state: (id) => getDb().campaign.count({ where: { projectId: id } }),
  },
  {
    name: "POST /api/campaigns/:id", min: "operator",
    setup: async (f) => (await getDb().campaign.create({ data: { projectId: f.project.id, title: "walk", goal: "walk" } })).id,
    call: (id, t) => controlCampaign(request("POST", `/api/campaigns/${id}`, t, { action: "pause" }), params(id)),
    state: async (id) => (await getDb().campaign.findUniqueOrThrow({ where: { id } })).paused,
  },
  {
    name: "PATCH /api/team/members/:id", min: "admin",
    setup: async (f) => (await addMember(f.team.id, "viewer")).id,
    call: (id, t) => patchMember(request("PATCH", `/api/team/members/${id}`, t, { role: "operator" }), params(id)),
    state: async (id) => (await getDb().membership.findUnique({ where: { id } }))?.role,
  },
  {
    name: "DELETE /api/team/members/:id", min: "admin",
    setup: async (f) => (await addMember(f.team.id, "viewer")).id,
    call: (id, t) => deleteMember(request("DELETE", `/api/team/members/${id}`, t), params(id)),
    state: (id) => getDb().membership.count({ where: { id } }),
  },
  {
    name: "POST /api/invitations", min: "admin", teamWide: true,
    setup: async (f) => f.team.id,
    call: (_id, t) => postInvitation(request("POST", "/api/invitations", t, { role: "viewer" }), noParams),
    state: (teamId) => getDb().invitation.count({ where: { teamId } }),
  },
  {
    name: "DELETE /api/invitations/:id", min: "admin",
    setup: async (f) => (await getDb().invitation.create({ data: { teamId: f.team.id, role: "viewer", tokenHash: hashToken(unique()), expiresAt: new Date(Date.now() + 3_600_000) } })).id,
    call: (id, t) => deleteInvitation(request("DELETE", `/api/invitations/${id}`, t), params(id)),
    state: async (id) => (await getDb().invitation.findUniqueOrThrow({ where: { id } })).revokedAt,
  },
  {
    name: "POST /api/tokens", min: "admin", teamWide: true,
    setup: async (f) => f.team.id,
    call: (_id, t) => postToken(request("POST", "/api/tokens", t, { name: "ci", role: "viewer" }), noParams),
    state: (teamId) => getDb().apiToken.count({ where: { teamId } }),
  },
  {
    name: "DELETE /api/tokens/:id", min: "admin",
    setup: async (f) => (await getDb().apiToken.create({ data: { teamId: f.team.id, name: "victim", role: "viewer", tokenHash: hashToken(unique()), prefix: "rm_api_x" } })).id,
    call: (id, t) => deleteToken(request("DELETE", `/api/tokens/${id}`, t), params(id)),
    state: async (id) => (await getDb().apiToken.findUniqueOrThrow({ where: { id } })).revokedAt,
  },
  {
    name: "POST /api/team/credentials", min: "admin", teamWide: true,
    setup: async (f) => f.team.id,
    call: (_id, t) => setCredential(request("POST", "/api/team/credentials", t, { name: `KEY_${seq++}`, value: "secret-value" }), noParams),
    state: (teamId) => getDb().agentCredential.count({ where: { teamId } }),
  },
  {
    name: "DELETE /api/team/credentials/:name", min: "admin",
    setup: async (f) => (await getDb().agentCredential.create({ data: { teamId: f.team.id, name: `KEY_${seq++}`, encryptedValue: encryptSecret("v"), last4: "v" } })).name,
    call: (name, t) => deleteCredential(request("DELETE", `/api/team/credentials/${name}`, t), { params: Promise.resolve({ name }) }),
    state: (name) => getDb().agentCredential.count({ where: { name } }),
  },
  {
    name: "PUT /api/team/slack", min: "admin", teamWide: true,
    setup: async (f) => f.team.id,
    call: (_id, t) => putSlack(request("PUT", "/api/team/slack", t, { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET }), noParams),
    state: async (teamId) => (await getDb().slackConnection.findUnique({ where: { teamId } }))?.updatedAt ?? null,
  },
  {
    name: "DELETE /api/team/slack", min: "admin", teamWide: true,
    setup: async (f) => (await slackConnectionOf(f.team.id)).teamId,
    call: (_id, t) => deleteSlack(request("DELETE", "/api/team/slack", t), noParams),
    state: (teamId) => getDb().slackConnection.count({ where: { teamId } }),
  },
  {
    name: "PUT /api/team/slack/channels", min: "admin",
    setup: async (f) => (await slackConnectionOf(f.team.id), f.project.id),
    call: (id, t) => mapChannel(request("PUT", "/api/team/slack/channels", t, { channelId: `C0WALK${seq++}`, projectId: id }), noParams),
    state: (projectId) => getDb().slackChannel.count({ where: { projectId } }),
  },
  {
    name: "DELETE /api/team/slack/channels/:channelId", min: "admin",
    setup: async (f) => (await getDb().slackChannel.create({ data: { connectionId: (await slackConnectionOf(f.team.id)).id, channelId: `C0WALK${seq++}`, projectId: f.project.id } })).channelId,
    call: (channelId, t) => unmapChannel(request("DELETE", `/api/team/slack/channels/${channelId}`, t), { params: Promise.resolve({ channelId }) }),
    state: (channelId) => getDb().slackChannel.count({ where: { channelId } }),
  },
  {
    name: "POST /api/approvals/:id", min: "operator",
    setup: async (f) => (await pendingApproval(f)).id,
    call: (id, t) => decide(request("POST", `/api/approvals/${id}`, t, { decision: "approve", comment: "ok" }), params(id)),
    state: async (id) => (await getDb().approval.findUniqueOrThrow({ where: { id } })).status,
  },
  {
    name: "POST /api/threads", min: "operator",
    setup: async (f) => f.project.id,
    call: (id, t) => postThread(request("POST", "/api/threads", t, { projectId: id, title: "walk" }), noParams),
    state: (id) => getDb().thread.count({ where: { projectId: id } }),
  },
  {
    name: "POST /api/threads/:id/turns", min: "operator",
    setup: async (f) => (await getDb().thread.create({ data: { projectId: f.project.id, title: "walk" } })).id,
    call: (id, t) => postTurn(request("POST", `/api/threads/${id}/turns`, t, { text: "walk" }), params(id)),
    state: (id) => getDb().turn.count({ where: { threadId: id } }),
  },
  {
    name: "PATCH /api/approvals/policy/:projectId", min: "admin",
    setup: async (f) => f.project.id,
    call: (id, t) => patchPolicy(request("PATCH", `/api/approvals/policy/${id}`, t, { approveMerges: true }), params(id)),
    state: async (id) => (await getDb().projectSettings.findUniqueOrThrow({ where: { projectId: id } })).approveMerges,
  },
];

const roles: TeamRole[] = ["owner", "admin", "operator", "viewer"];
const rank: Record<TeamRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

describe("role walk over every mutating endpoint", () => {
  let mine: Fixture;
  let other: Fixture;
  const tokens = {} as Record<TeamRole, string>;
  let outsider: string;
  let otherProjectToken: string;

  beforeAll(async () => {
    mine = await createTeamWithProject({ loopEnabled: false });
    other = await createTeamWithProject({ loopEnabled: false });
    for (const role of roles) tokens[role] = await apiToken(mine.team.id, role);
    outsider = await apiToken(other.team.id, "owner");
    otherProjectToken = await apiToken(mine.team.id, "owner", other.project.id);
  });

  for (const e of endpoints) {
    for (const role of roles) {
      const allowed = rank[role] >= rank[e.min];
      it(`${e.name} as ${role}: ${allowed ? "allowed" : "403, nothing changes"}`, async () => {
        const id = await e.setup(mine);
        const before = await e.state(id);
        const res = await e.call(id, tokens[role]);
        if (allowed) {
          expect(res.status, await res.clone().text()).toBeLessThan(300);
        } else {
          expect(res.status).toBe(403);
          expect((await res.json()).error.code).toBe("forbidden");
          expect(await e.state(id)).toEqual(before);
        }
      });
    }

    if (!e.teamWide) {
      it(`${e.name} by an owner of another team: 404, nothing changes`, async () => {
        const id = await e.setup(mine);
        const before = await e.state(id);
        const res = await e.call(id, outsider);
        expect(res.status).toBe(404);
        expect((await res.json()).error.code).toBe("not_found");
        expect(await e.state(id)).toEqual(before);
      });
    }

    it(`${e.name} with a token scoped to another project: refused, nothing changes`, async () => {
      const id = await e.setup(mine);
      const before = await e.state(id);
      const res = await e.call(id, otherProjectToken);
      expect([403, 404]).toContain(res.status);
      expect(await e.state(id)).toEqual(before);
    });

    it(`${e.name} without credentials: 401`, async () => {
      const id = await e.setup(mine);
      expect((await e.call(id, "")).status).toBe(401);
    });
  }
});
