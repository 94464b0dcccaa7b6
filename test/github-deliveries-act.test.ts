// The stored deliveries that act on GitHub, for a project connected as a GitHub App to the local
// double: green checks and an approval merge the open PR, what the app itself wrote starts
// nothing, every state change of a PR is applied.
import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { encryptSecret } from "@/lib/crypto/secrets";
import { processDelivery } from "@/lib/github/deliveries";
import { startGithubDouble } from "./helpers/github-fixtures";
import { createBareProject } from "./helpers/runs";
import { deliveryColumns } from "./helpers/deliveries";

const double = await startGithubDouble();
afterAll(() => double.stop());
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });

type Json = Record<string, unknown>;
const BRANCH = "ringmaster/7-feature";
let n = 0;

/** A bare "remote" whose branch BRANCH holds one commit; its sha. */
function remoteWithBranch(fullName: string): string {
  const git = join(double.remotesRoot, `${fullName}.git`);
  execFileSync("git", ["init", "--bare", "-q", git]);
  const run = (args: string[], input?: string) => execFileSync("git", ["--git-dir", git, ...args], { input, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" } }).toString().trim();
  const tree = run(["mktree"], "");
  const sha = run(["commit-tree", tree, "-m", "feature"]);
  run(["update-ref", `refs/heads/${BRANCH}`, sha]);
  return sha;
}

/** A project connected as the double's app (id 42), auto-merge on, with open PR #7 at `sha` here and on "GitHub". */
async function appProject() {
  const { team, project } = await createBareProject();
  const connection = await getDb().githubConnection.create({
    data: { teamId: team.id, name: "acme-app", kind: "app", appId: "42", installationId: "777", encryptedPrivateKey: encryptSecret(privateKey), botLogin: "ringmaster-test[bot]" },
  });
  const repo = `w-${project.slug}`;
  const fullName = `acme/${repo}`;
  const updated = await getDb().project.update({ where: { id: project.id }, data: { repoKind: "github", githubOwner: "acme", githubRepo: repo, githubConnectionId: connection.id } });
  await getDb().projectSettings.update({ where: { projectId: project.id }, data: { autoMerge: true, mergeMethod: "rebase" } });
  const sha = remoteWithBranch(fullName);
  double.openPull(fullName, { number: 7, head: BRANCH, base: "main" });
  const pr = await getDb().pullRequest.create({
    data: { projectId: project.id, number: 7, url: `https://github.com/${fullName}/pull/7`, state: "open", headBranch: BRANCH, baseBranch: "main", headSha: sha },
  });
  return { project: updated, fullName, sha, pr };
}

async function processStored(projectId: string, event: string, payload: Json) {
  const deliveryId = `act-${++n}-${Math.random().toString(36).slice(2, 6)}`;
  await getDb().webhookDelivery.create({ data: { provider: "github", deliveryId, event, projectId, ...deliveryColumns(event, payload) } });
  return processDelivery(deliveryId);
}

const prState = async (id: string) => (await getDb().pullRequest.findUniqueOrThrow({ where: { id } })).state;
const merges = (fullName: string) => double.calls("PUT", `/repos/${fullName}/pulls/7/merge`);

describe("deliveries that act on GitHub", () => {
  it.each([
    ["check_run", (sha: string) => ({ action: "completed", check_run: { head_sha: sha, app: { id: 7 } } })],
    ["check_suite", (sha: string) => ({ action: "completed", check_suite: { head_sha: sha, app: { id: 7 } } })],
    ["status", (sha: string) => ({ state: "success", sha })],
  ] as const)("a %s with every check green merges the open PR at that head, with the project's method", async (event, payload) => {
    const { project, fullName, sha, pr } = await appProject();
    double.setCheckRuns(fullName, sha, [{ name: "build", conclusion: "success" }]);
    expect(await processStored(project.id, event, payload(sha))).toBe("processed");
    expect(merges(fullName).map((r) => r.body)).toEqual([{ merge_method: "rebase", sha }]);
    expect(double.pull(fullName, 7)).toMatchObject({ merged: true, mergeMethod: "rebase" });
    expect(await prState(pr.id)).toBe("merged");
  });

  it("a completed check while another still runs records the state and merges nothing", async () => {
    const { project, fullName, sha, pr } = await appProject();
    double.setCheckRuns(fullName, sha, [{ name: "build", conclusion: "success" }, { name: "e2e", conclusion: null, status: "in_progress" }]);
    expect(await processStored(project.id, "check_run", { action: "completed", check_run: { head_sha: sha } })).toBe("processed");
    expect(merges(fullName)).toEqual([]);
    // The checks are read once: a verdict that is no success does not go on to the merge policy (which reads them again).
    expect(double.calls("GET", `/repos/${fullName}/commits/${sha}/check-runs`)).toHaveLength(1);
    expect(await getDb().pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).toMatchObject({ state: "open", checksState: "pending" });
  });

  it("an approving review merges once its feedback is checked; a review that only comments does not", async () => {
    const { project, fullName, sha, pr } = await appProject();
    double.setCheckRuns(fullName, sha, [{ name: "build", conclusion: "success" }]);
    const review = (state: string) => ({ action: "submitted", review: { user: { login: "alice" }, state }, pull_request: { number: 7 } });
    expect(await processStored(project.id, "pull_request_review", review("commented"))).toBe("processed");
    expect(merges(fullName)).toEqual([]);
    // An approval nobody wrote (no author) is no feedback: ignored, and it merges nothing.
    expect(await processStored(project.id, "pull_request_review", { action: "submitted", review: { state: "approved" }, pull_request: { number: 7 } })).toBe("ignored");
    expect(merges(fullName)).toEqual([]);
    expect(await processStored(project.id, "pull_request_review", review("approved"))).toBe("processed");
    expect(merges(fullName).map((r) => r.body)).toEqual([{ merge_method: "rebase", sha }]);
    expect(await prState(pr.id)).toBe("merged");
  });

  it.each([
    ["pull_request_review", { action: "submitted", review: { user: { login: "alice" }, state: "approved", performed_via_github_app: { id: 42 } }, pull_request: { number: 7 } }],
    ["pull_request_review_comment", { action: "created", comment: { user: { login: "alice" }, performed_via_github_app: { id: 42 } }, pull_request: { number: 7 } }],
    ["issue_comment", { action: "created", comment: { user: { login: "alice" }, performed_via_github_app: { id: 42 } }, issue: { number: 7, pull_request: {} } }],
    ["check_run", { action: "completed", check_run: { head_sha: "SHA", app: { id: 42 } } }],
    ["check_suite", { action: "completed", check_suite: { head_sha: "SHA", app: { id: 42 } } }],
  ] as const)("a %s our own app wrote starts nothing and asks GitHub nothing", async (event, payload) => {
    const { project, fullName, sha, pr } = await appProject();
    double.setCheckRuns(fullName, sha, [{ name: "build", conclusion: "success" }]);
    const asked = double.requests.length;
    expect(await processStored(project.id, event, JSON.parse(JSON.stringify(payload).replace("SHA", sha)))).toBe("ignored");
    expect(double.requests.length).toBe(asked);
    expect(await prState(pr.id)).toBe("open");
  });

  it("applies a PR closed, reopened and edited on GitHub", async () => {
    const { project, sha, pr } = await appProject();
    const event = (action: string, state: string) => ({ action, pull_request: { number: 7, state, merged: false, head: { sha, ref: BRANCH } } });
    expect(await processStored(project.id, "pull_request", event("closed", "closed"))).toBe("processed");
    expect(await prState(pr.id)).toBe("closed");
    expect(await processStored(project.id, "pull_request", event("reopened", "open"))).toBe("processed");
    expect(await prState(pr.id)).toBe("open");
    expect(await processStored(project.id, "pull_request", event("edited", "open"))).toBe("processed");
    expect(await prState(pr.id)).toBe("open");
  });
});
