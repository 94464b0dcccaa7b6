// The webhook intake of a server without GITHUB_WEBHOOK_SECRET: only a project's own secret verifies.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";

Object.assign(process.env, { ENCRYPTION_KEY: "5e".repeat(32) });
delete process.env.GITHUB_WEBHOOK_SECRET;

const { getDb } = await import("@/lib/db");
const { encryptSecret } = await import("@/lib/crypto/secrets");
const { receiveGithubDelivery } = await import("@/lib/github/intake");
const { createBareProject } = await import("./helpers/runs");

const sign = (secret: string, raw: string) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
const headers = (raw: string, secret: string, id: string) =>
  new Headers({ "x-github-event": "push", "x-github-delivery": id, "x-hub-signature-256": sign(secret, raw) });

describe("webhook intake without an environment secret", () => {
  it("refuses a delivery for a repository no project knows, whatever it is signed with, and verifies a project's own", async () => {
    const unknown = JSON.stringify({ repository: { full_name: "acme/nowhere" }, ref: "refs/heads/main" });
    for (const secret of ["", "anything"]) {
      expect(await receiveGithubDelivery(headers(unknown, secret, `bare-${secret}`), unknown))
        .toEqual({ status: 401, body: { error: { code: "unauthenticated", message: "signature does not match" } } });
    }
    expect(await getDb().webhookDelivery.count()).toBe(0);

    const { team, project } = await createBareProject();
    const connection = await getDb().githubConnection.create({ data: { teamId: team.id, name: "acme", kind: "pat", encryptedWebhookSecret: encryptSecret("own-secret-1") } });
    await getDb().project.update({ where: { id: project.id }, data: { repoKind: "github", githubOwner: "acme", githubRepo: "bare", githubConnectionId: connection.id } });
    const known = JSON.stringify({ repository: { full_name: "acme/bare" }, ref: "refs/heads/main" });
    expect(await receiveGithubDelivery(headers(known, "own-secret-1", "bare-own"), known)).toEqual({ status: 202, body: { accepted: true } });
  });
});
