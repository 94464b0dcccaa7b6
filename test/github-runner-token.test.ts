// The git credential a remote runner receives for a GitHub project: for an app connection GitHub
// mints it for the one repository and its contents only; a personal access token goes as it is.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runnerGitToken } from "@/lib/github/repo";
import { PUT as putConnection } from "@/app/api/projects/[id]/github/route";
import { params, request } from "./helpers/api";
import { createGithubProject, PAT, startGithubDouble, WEBHOOK_SECRET } from "./helpers/github-fixtures";

const double = await startGithubDouble();
afterAll(() => double.stop());

describe("a remote runner's git token", () => {
  it("is an installation token narrowed to the project's repository and contents: write, for an app connection", async () => {
    const fx = await createGithubProject(double);
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
    const installationId = String(700 + Math.floor(Math.random() * 10_000));
    const res = await putConnection(request("PUT", `/api/projects/${fx.project.id}/github`, fx.token, { kind: "app", appId: "42", installationId, privateKey, webhookSecret: WEBHOOK_SECRET }), params(fx.project.id));
    expect(res.status).toBe(201);
    const project = await getDb().project.findUniqueOrThrow({ where: { id: fx.project.id } });

    const token = await runnerGitToken(project);

    expect(token).toBe(`ghs_installation${installationId}token`);
    const minted = double.calls("POST", `/app/installations/${installationId}/access_tokens`).map((c) => c.body);
    const narrowed = minted.filter((b) => (b as { repositories?: unknown })?.repositories);
    expect(narrowed).toEqual([{ repositories: [project.githubRepo], permissions: { contents: "write" } }]);
  });

  it("is the personal access token itself for a PAT connection (GitHub cannot narrow one)", async () => {
    const fx = await createGithubProject(double);
    const project = await getDb().project.findUniqueOrThrow({ where: { id: fx.project.id } });
    expect(await runnerGitToken(project)).toBe(PAT);
  });
});
