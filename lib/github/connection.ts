import { recordAudit } from "@/lib/audit/record";
import { z } from "zod";
import { App } from "octokit";
import { getDb, type GithubConnectionModel as GithubConnection } from "@/lib/db";
import { requireProject, type Actor } from "@/lib/auth/actor";
import { encryptSecret } from "@/lib/crypto/secrets";
import { clientClass, newClient } from "@/lib/github/client";
import { apiBaseUrlProblem, MISDIRECTED } from "@/lib/github/api-hosts";
import { connectionInput, type ConnectionInput } from "@/lib/github/connection-schema";
import { getEnv } from "@/lib/env";
import { forgetRepoTargets } from "@/lib/github/webhook-secrets";
import { branchHeadOn } from "@/lib/github/branch-head";

const invalid = (field: string, message: string) =>
  new z.ZodError([{ code: "custom", path: [field], message, input: undefined }]);

/** What the API shows of a connection: never a token, key or secret. */
export function connectionView(c: GithubConnection) {
  return {
    id: c.id, name: c.name, kind: c.kind, apiBaseUrl: c.apiBaseUrl, appId: c.appId, installationId: c.installationId,
    botLogin: c.botLogin, mentionLogin: c.mentionLogin, hasWebhookSecret: Boolean(c.encryptedWebhookSecret), createdAt: c.createdAt,
    webhookUrl: new URL("/api/webhooks/github", getEnv().APP_URL).toString(),
  };
}

// Ringmaster's own identity on GitHub, so it never answers its own comments.
async function lookupIdentity(draft: GithubConnection, input: z.output<typeof connectionInput>): Promise<string> {
  try {
    if (input.kind === "pat") return (await (await newClient(draft)).rest.users.getAuthenticated()).data.login;
    const app = new App({ appId: input.appId, privateKey: input.privateKey, Octokit: clientClass(draft) });
    const { data } = await app.octokit.request("GET /app");
    return `${data!.slug}[bot]`;
  } catch (err) {
    const { status, message } = err as { status?: number; message: string };
    throw invalid(input.kind === "pat" ? "token" : "privateKey", `was refused by GitHub (${status === MISDIRECTED ? message : status ?? message})`);
  }
}

/** Connects a GitHub project to its repository; the credentials are checked against GitHub first. */
export async function connectProject(actor: Actor, projectId: string, raw: ConnectionInput) {
  const input = connectionInput.parse(raw);
  const project = await requireProject(actor, projectId, "admin");
  const hostProblem = input.apiBaseUrl ? apiBaseUrlProblem(input.apiBaseUrl) : null;
  if (hostProblem) throw invalid("apiBaseUrl", hostProblem);
  if (project.repoKind !== "github" || !project.githubOwner || !project.githubRepo) throw invalid("project", "is not a GitHub project");
  const data = {
    teamId: project.teamId,
    name: input.name ?? `${project.githubOwner}/${project.githubRepo}`,
    kind: input.kind,
    apiBaseUrl: input.apiBaseUrl ?? null,
    appId: input.kind === "app" ? input.appId : null,
    installationId: input.kind === "app" ? input.installationId : null,
    encryptedToken: input.kind === "pat" ? encryptSecret(input.token) : null,
    encryptedPrivateKey: input.kind === "app" ? encryptSecret(input.privateKey) : null,
    encryptedWebhookSecret: input.webhookSecret ? encryptSecret(input.webhookSecret) : null,
  };
  const draft = { ...data, id: `draft-${projectId}`, botLogin: null, mentionLogin: null, createdAt: new Date() } as GithubConnection;
  const botLogin = await lookupIdentity(draft, input);
  try {
    await (await newClient(draft)).rest.repos.get({ owner: project.githubOwner, repo: project.githubRepo });
  } catch (err) {
    throw invalid("project", `repository ${project.githubOwner}/${project.githubRepo} is not reachable with these credentials (${(err as { status?: number }).status ?? "error"})`);
  }
  // The base branch must be there too, or the first run would fail fetching it.
  await branchHeadOn(await newClient(draft), project.githubOwner, project.githubRepo, project.activeBranch ?? project.baseBranch);
  const connection = await getDb().$transaction(async (tx) => {
    const previous = project.githubConnectionId;
    // New credentials keep the login people already mention.
    const mentionLogin = previous ? (await tx.githubConnection.findFirst({ where: { id: previous, teamId: project.teamId }, select: { mentionLogin: true } }))?.mentionLogin ?? null : null;
    const created = await tx.githubConnection.create({ data: { ...data, botLogin, mentionLogin } });
    await tx.project.update({ where: { id: project.id }, data: { githubConnectionId: created.id } });
    if (previous) await tx.githubConnection.deleteMany({ where: { id: previous, teamId: project.teamId, projects: { none: {} } } });
    // Never the secrets: only what identifies the connection.
    await recordAudit({ teamId: project.teamId, by: actor, action: "github.connected", target: { type: "project", id: project.id },
      after: { kind: created.kind, name: created.name, apiBaseUrl: created.apiBaseUrl, appId: created.appId, installationId: created.installationId, botLogin } }, tx);
    return created;
  });
  forgetRepoTargets();
  return connectionView(connection);
}

export async function getProjectConnection(actor: Actor, projectId: string) {
  const project = await requireProject(actor, projectId);
  if (!project.githubConnectionId) return null;
  const c = await getDb().githubConnection.findFirst({ where: { id: project.githubConnectionId, teamId: actor.teamId } });
  return c ? connectionView(c) : null;
}

export async function disconnectProject(actor: Actor, projectId: string): Promise<void> {
  const project = await requireProject(actor, projectId, "admin");
  if (!project.githubConnectionId) return;
  await getDb().$transaction(async (tx) => {
    await tx.project.update({ where: { id: project.id }, data: { githubConnectionId: null } });
    await tx.githubConnection.deleteMany({ where: { id: project.githubConnectionId!, teamId: project.teamId, projects: { none: {} } } });
    await recordAudit({ teamId: project.teamId, by: actor, action: "github.disconnected", target: { type: "project", id: project.id } }, tx);
  });
  forgetRepoTargets();
}
