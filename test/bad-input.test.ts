// Bad input answers 400 (or 404 for an id) naming the field, and writes nothing — never a 500.
// Every endpoint that takes a JSON body is walked: each string in a valid body, in turn, gets a
// NUL or an unpaired surrogate. Add a row to `bodies` when you add an endpoint with a body.
import { describe, expect, it, beforeAll } from "vitest";
import { getDb } from "@/lib/db";
import { POST as postLoop } from "@/app/api/projects/[id]/loop/route";
import { GET as getPrompts, POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { PATCH as patchMember } from "@/app/api/team/members/[id]/route";
import { POST as postInvitation } from "@/app/api/invitations/route";
import { POST as postToken } from "@/app/api/tokens/route";
import { POST as decide } from "@/app/api/approvals/[id]/route";
import { PATCH as patchPolicy } from "@/app/api/approvals/policy/[id]/route";
import { POST as postProject } from "@/app/api/projects/route";
import { GET as getProject, PATCH as patchProject } from "@/app/api/projects/[id]/route";
import { PATCH as patchSettings } from "@/app/api/projects/[id]/settings/route";
import { POST as importPrompts } from "@/app/api/projects/[id]/prompts/import/route";
import { PATCH as patchPrompt } from "@/app/api/prompts/[id]/route";
import { POST as promptAction } from "@/app/api/prompts/[id]/actions/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { POST as postProfile } from "@/app/api/agent-profiles/route";
import { PATCH as patchProfile } from "@/app/api/agent-profiles/[id]/route";
import { PUT as putGithub } from "@/app/api/projects/[id]/github/route";
import { GET as getAudit } from "@/app/api/audit/route";
import { GET as getActivity } from "@/app/api/projects/[id]/activity/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

type Fixture = Awaited<ReturnType<typeof createTeamWithProject>>;
type Handler = (req: Request, ctx: never) => Promise<Response>;
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let seq = 0;

interface BodyEndpoint {
  name: string;
  method: string;
  path: (id: string) => string;
  handler: Handler;
  /** What the call acts on, in the fixture's team. */
  setup: (f: Fixture) => Promise<string>;
  body: () => Json;
  /** What must not change when the call is refused. */
  state: (id: string, f: Fixture) => Promise<unknown>;
}

const project = (id: string) => getDb().project.findUniqueOrThrow({ where: { id }, include: { settings: true } });
const promptRow = (id: string) => getDb().prompt.findUniqueOrThrow({ where: { id } });
const teamRows = (f: Fixture) => Promise.all([
  getDb().project.count({ where: { teamId: f.team.id } }), getDb().invitation.count({ where: { teamId: f.team.id } }),
  getDb().apiToken.count({ where: { teamId: f.team.id } }), getDb().agentProfile.count({ where: { teamId: f.team.id } }),
  getDb().auditEvent.count({ where: { teamId: f.team.id } }),
]);

async function pendingPrompt(f: Fixture, approval: "pending" | "not_required" = "not_required") {
  const n = 2000 + ++seq;
  return getDb().prompt.create({ data: { projectId: f.project.id, planningKey: f.project.planningKey, number: n, title: `walk ${n}`, body: "", approval } });
}

const bodies: BodyEndpoint[] = [
  { name: "POST /api/projects", method: "POST", path: () => "/api/projects", handler: postProject as Handler, setup: async () => "",
    body: () => ({ name: "bad input", repoKind: "local", repoPath: "/tmp/bad-input", baseBranch: "main" }), state: (_id, f) => teamRows(f) },
  { name: "PATCH /api/projects/:id", method: "PATCH", path: (id) => `/api/projects/${id}`, handler: patchProject as Handler, setup: async (f) => f.project.id,
    body: () => ({ name: "renamed", repoPath: "/tmp/elsewhere", baseBranch: "trunk" }), state: (id) => project(id) },
  { name: "PATCH /api/projects/:id/settings", method: "PATCH", path: (id) => `/api/projects/${id}/settings`, handler: patchSettings as Handler, setup: async (f) => f.project.id,
    body: () => ({ reviewDetectionString: "bot", rerunComment: "@bot rerun", verifyCommand: "npm test", mergeMethod: "merge", approvalPolicy: "all", modelRouting: { ui: "model-a" } }),
    state: (id) => project(id) },
  { name: "POST /api/projects/:id/prompts/import", method: "POST", path: (id) => `/api/projects/${id}/prompts/import`, handler: importPrompts as Handler, setup: async (f) => f.project.id,
    body: () => ({ files: [{ name: "4001-x.md", text: "---\nnumber: 4001\ntitle: imported\n---\nbody\n" }] }), state: (id) => getDb().prompt.count({ where: { projectId: id } }) },
  { name: "POST /api/projects/:id/prompts", method: "POST", path: (id) => `/api/projects/${id}/prompts`, handler: postPrompt as Handler, setup: async (f) => f.project.id,
    body: () => ({ title: "t", body: "b", domain: "ui" }), state: (id) => getDb().prompt.count({ where: { projectId: id } }) },
  { name: "PATCH /api/prompts/:id", method: "PATCH", path: (id) => `/api/prompts/${id}`, handler: patchPrompt as Handler, setup: async (f) => (await pendingPrompt(f)).id,
    body: () => ({ title: "t", body: "b", domain: "ui" }), state: (id) => promptRow(id) },
  { name: "POST /api/prompts/:id/actions", method: "POST", path: (id) => `/api/prompts/${id}/actions`, handler: promptAction as Handler, setup: async (f) => (await pendingPrompt(f)).id,
    body: () => ({ action: "cancel" }), state: (id) => promptRow(id) },
  { name: "POST /api/projects/:id/loop", method: "POST", path: (id) => `/api/projects/${id}/loop`, handler: postLoop as Handler, setup: async (f) => f.project.id,
    body: () => ({ action: "branch", branch: "feature/x" }), state: (id) => project(id) },
  { name: "PATCH /api/team/members/:id", method: "PATCH", path: (id) => `/api/team/members/${id}`, handler: patchMember as Handler,
    setup: async (f) => (await getDb().membership.findFirstOrThrow({ where: { teamId: f.team.id } })).id,
    body: () => ({ role: "owner" }), state: (id) => getDb().membership.findUnique({ where: { id } }) },
  { name: "POST /api/invitations", method: "POST", path: () => "/api/invitations", handler: postInvitation as Handler, setup: async () => "",
    body: () => ({ role: "viewer", email: "new@example.test" }), state: (_id, f) => teamRows(f) },
  { name: "POST /api/tokens", method: "POST", path: () => "/api/tokens", handler: postToken as Handler, setup: async () => "",
    body: () => ({ name: "ci", role: "viewer" }), state: (_id, f) => teamRows(f) },
  { name: "POST /api/approvals/:id", method: "POST", path: (id) => `/api/approvals/${id}`, handler: decide as Handler,
    setup: async (f) => {
      const prompt = await pendingPrompt(f, "pending");
      return (await getDb().approval.create({ data: { teamId: f.team.id, projectId: f.project.id, kind: "prompt_run", promptId: prompt.id, requestedBy: "system" } })).id;
    },
    body: () => ({ decision: "approve", comment: "ok" }), state: (id) => getDb().approval.findUniqueOrThrow({ where: { id } }) },
  { name: "PATCH /api/approvals/policy/:id", method: "PATCH", path: (id) => `/api/approvals/policy/${id}`, handler: patchPolicy as Handler, setup: async (f) => f.project.id,
    body: () => ({ approvalPolicy: "all" }), state: (id) => project(id) },
  { name: "POST /api/agent-profiles", method: "POST", path: () => "/api/agent-profiles", handler: postProfile as Handler, setup: async () => "",
    body: () => ({ name: "p", adapter: "shell", commandTemplate: "agent {prompt}", model: "m", fallbackModel: "f", completionSignal: "DONE", envAllowList: ["API_KEY"], extraArgs: ["--x"] }),
    state: (_id, f) => teamRows(f) },
  { name: "PATCH /api/agent-profiles/:id", method: "PATCH", path: (id) => `/api/agent-profiles/${id}`, handler: patchProfile as Handler, setup: async (f) => f.profile.id,
    body: () => ({ name: "p2", adapter: "shell", commandTemplate: "agent {prompt}", extraArgs: ["--y"] }), state: (id) => getDb().agentProfile.findUniqueOrThrow({ where: { id } }) },
  { name: "PUT /api/projects/:id/github", method: "PUT", path: (id) => `/api/projects/${id}/github`, handler: putGithub as Handler, setup: async (f) => f.project.id,
    body: () => ({ kind: "pat", token: "ghp_0123456789abcdefghijklmnopqrstuvwxyz", name: "acme", webhookSecret: "0123456789abcdef" }), state: (id) => project(id) },
];

/** Every string in a body (values and keys), as paths. */
function stringPaths(value: Json, path: (string | number)[] = []): { path: (string | number)[]; key: boolean }[] {
  if (typeof value === "string") return [{ path, key: false }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [...(path.length ? [] : [{ path: [k], key: true }]), ...stringPaths(v, [...path, k])]);
  }
  return [];
}

function spoil(body: Json, at: { path: (string | number)[]; key: boolean }, bad: string): { body: Json; field: string } {
  if (at.key) {
    const [key] = at.path;
    const copy = { ...body, [`${key}${bad}`]: body[key] };
    delete copy[key];
    return { body: copy, field: `${key}${bad}` };
  }
  const copy = structuredClone(body);
  let node = copy;
  for (const p of at.path.slice(0, -1)) node = node[p];
  node[at.path.at(-1)!] = `${node[at.path.at(-1)!]}${bad}`;
  return { body: copy, field: at.path.join(".") };
}

const poisons = { NUL: "\u0000", "a lone surrogate": "\ud800" };

let f: Fixture;
let owner: string;

beforeAll(async () => {
  f = await createTeamWithProject({ loopEnabled: false });
  owner = await apiToken(f.team.id, "owner");
});

describe("NUL and unpaired surrogates in any string of any JSON body: 400 naming the field, nothing written", () => {
  for (const e of bodies) {
    for (const at of stringPaths(e.body())) {
      for (const [label, bad] of Object.entries(poisons)) {
        it(`${e.name}: ${label} in ${at.key ? "the key " : ""}${at.path.join(".")}`, async () => {
          const id = await e.setup(f);
          const before = await e.state(id, f);
          const { body, field } = spoil(e.body(), at, bad);
          const res = await e.handler(request(e.method, e.path(id), owner, JSON.stringify(body)), params(id) as never);
          const answer = await res.json();
          expect(res.status, JSON.stringify(answer)).toBe(400);
          expect(answer.error).toMatchObject({ code: "invalid", field });
          expect(await e.state(id, f)).toEqual(before);
        });
      }
    }
  }

  it("the valid bodies are accepted (the walk tests what it means to)", async () => {
    for (const e of bodies) {
      const id = await e.setup(f);
      const res = await e.handler(request(e.method, e.path(id), owner, e.body()), params(id) as never);
      expect(res.status, `${e.name}: ${await res.clone().text()}`).toBeLessThan(500);
    }
  });
});

describe("integers past Postgres int4: 400 naming the field", () => {
  const big = 2 ** 31;
  it.each([
    ["a prompt number", { title: "t", number: big }, "number"],
    ["a dependency", { title: "t", dependencies: [1, big] }, "dependencies.1"],
  ])("POST prompts with %s", async (_l, body, field) => {
    const before = await getDb().prompt.count({ where: { projectId: f.project.id } });
    const res = await postPrompt(request("POST", `/api/projects/${f.project.id}/prompts`, owner, body), params(f.project.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error.field).toBe(field);
    expect(await getDb().prompt.count({ where: { projectId: f.project.id } })).toBe(before);
  });

  it("PATCH a prompt's dependencies", async () => {
    const p = await pendingPrompt(f);
    const res = await patchPrompt(request("PATCH", `/api/prompts/${p.id}`, owner, { dependencies: [big] }), params(p.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error.field).toBe("dependencies.0");
  });

  it("an imported file named with a huge number", async () => {
    const res = await importPrompts(request("POST", `/api/projects/${f.project.id}/prompts/import`, owner, { files: [{ name: `${big}-x.md`, text: "---\ntitle: huge\n---\n" }] }), params(f.project.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ field: "files.0", message: expect.stringContaining("1 to 2147483647") });
  });
});

describe("query strings and ids", () => {
  it("a huge ?before= cursor is a 400 naming it", async () => {
    for (const [handler, path, ctx] of [[getAudit, "/api/audit", { params: Promise.resolve({}) }], [getActivity, `/api/projects/${f.project.id}/activity`, params(f.project.id)]] as const) {
      const res = await (handler as Handler)(request("GET", `${path}?before=99999999999999999999999`, owner), ctx as never);
      expect(res.status, path).toBe(400);
      expect((await res.json()).error.field).toBe("before");
    }
  });

  it("a NUL in a query parameter is a 400 naming it", async () => {
    const res = await getActivity(request("GET", `/api/projects/${f.project.id}/activity?type=a%00b`, owner), params(f.project.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error.field).toBe("type");
  });

  it.each(["\u0000", "a\u0000b", "\ud800", "x".repeat(5000)])("an id param %# is a 404, never a 500", async (id) => {
    for (const [handler, path] of [[getProject, "projects"], [getPrompts, "projects"], [getRun, "runs"]] as const) {
      const res = await (handler as Handler)(request("GET", `/api/${path}/x`, owner), params(id) as never);
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
    const before = await project(f.project.id);
    const res = await patchProject(request("PATCH", "/api/projects/x", owner, { name: "no" }), params(id));
    expect(res.status).toBe(404);
    expect(await project(f.project.id)).toEqual(before);
  });

  it("a body that is not JSON is a 400 on body", async () => {
    const res = await postPrompt(request("POST", `/api/projects/${f.project.id}/prompts`, owner, "{not json"), params(f.project.id));
    expect(res.status).toBe(400);
    expect((await res.json()).error.field).toBe("body");
  });
});

describe("no coercion between booleans and numbers; branch names as git checks them", () => {
  it.each([
    ["settings maxParallel: true", () => patchSettings(request("PATCH", `/api/projects/${f.project.id}/settings`, owner, { maxParallel: true }), params(f.project.id)), "maxParallel"],
    ["settings spawnCooldownMs: false", () => patchSettings(request("PATCH", `/api/projects/${f.project.id}/settings`, owner, { spawnCooldownMs: false }), params(f.project.id)), "spawnCooldownMs"],
    ["settings parallelEnabled: 1", () => patchSettings(request("PATCH", `/api/projects/${f.project.id}/settings`, owner, { parallelEnabled: 0 }), params(f.project.id)), "parallelEnabled"],
    ["policy approveMerges: 1", () => patchPolicy(request("PATCH", `/api/approvals/policy/${f.project.id}`, owner, { approveMerges: 1 }), params(f.project.id)), "approveMerges"],
    ["loop parallel enabled: 1", () => postLoop(request("POST", `/api/projects/${f.project.id}/loop`, owner, { action: "parallel", enabled: 1 }), params(f.project.id)), "enabled"],
    ["prompt priority: true", () => postPrompt(request("POST", `/api/projects/${f.project.id}/prompts`, owner, { title: "t", priority: true }), params(f.project.id)), "priority"],
    ["invitation expiresInHours: true", () => postInvitation(request("POST", "/api/invitations", owner, { role: "viewer", expiresInHours: true }), params("")), "expiresInHours"],
    ["token expiresInDays: true", () => postToken(request("POST", "/api/tokens", owner, { name: "t", role: "viewer", expiresInDays: true }), params("")), "expiresInDays"],
    ["project create baseBranch ../x", () => postProject(request("POST", "/api/projects", owner, { name: "b", repoKind: "local", repoPath: "/tmp/b", baseBranch: "../x" }), params("")), "baseBranch"],
    ["project create baseBranch a.lock", () => postProject(request("POST", "/api/projects", owner, { name: "b", repoKind: "local", repoPath: "/tmp/b", baseBranch: "a.lock" }), params("")), "baseBranch"],
    ["project update baseBranch a//b", () => patchProject(request("PATCH", `/api/projects/${f.project.id}`, owner, { baseBranch: "a//b" }), params(f.project.id)), "baseBranch"],
    ["loop branch ../../etc", () => postLoop(request("POST", `/api/projects/${f.project.id}/loop`, owner, { action: "branch", branch: "../../etc" }), params(f.project.id)), "branch"],
    ["loop branch a/.hidden", () => postLoop(request("POST", `/api/projects/${f.project.id}/loop`, owner, { action: "branch", branch: "a/.hidden" }), params(f.project.id)), "branch"],
    ["loop branch x@{1}", () => postLoop(request("POST", `/api/projects/${f.project.id}/loop`, owner, { action: "branch", branch: "x@{1}" }), params(f.project.id)), "branch"],
  ])("%s: 400 naming the field, nothing written", async (_label, call, field) => {
    const before = await Promise.all([project(f.project.id), teamRows(f), getDb().prompt.count({ where: { projectId: f.project.id } })]);
    const res = await call();
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer)).toBe(400);
    expect(answer.error.field).toBe(field);
    expect(await Promise.all([project(f.project.id), teamRows(f), getDb().prompt.count({ where: { projectId: f.project.id } })])).toEqual(before);
  });

  it("numbers sent as a form's digits still count", async () => {
    const res = await patchSettings(request("PATCH", `/api/projects/${f.project.id}/settings`, owner, { maxParallel: "4" }), params(f.project.id));
    expect(res.status).toBe(200);
    expect((await res.json()).settings.maxParallel).toBe(4);
  });
});

describe("API answers are never cached", () => {
  it("JSON answers, errors included, carry Cache-Control: no-store", async () => {
    const ok = await getProject(request("GET", `/api/projects/${f.project.id}`, owner), params(f.project.id));
    const missing = await getProject(request("GET", "/api/projects/nope", owner), params("nope"));
    const anon = await getProject(request("GET", `/api/projects/${f.project.id}`), params(f.project.id));
    expect([ok.status, missing.status, anon.status]).toEqual([200, 404, 401]);
    for (const res of [ok, missing, anon]) expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
