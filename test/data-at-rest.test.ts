// What Ringmaster keeps on disk and in the database is no one else's to read: the data folder is
// private to its user, secrets files are 0600, and no OAuth provider token is stored.
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { authAdapter } from "@/lib/auth/adapter";

const fresh = () => join(mkdtempSync(join(tmpdir(), "rm-data-")), "data");

describe("the data folder", () => {
  it("is created 0700 by the app (clones, worktrees, demo repository)", async () => {
    const dir = fresh();
    process.env.DATA_DIR = dir;
    const { getEnv } = await import("@/lib/env");
    Object.assign(getEnv(), { DATA_DIR: dir });
    const { clonePath } = await import("@/lib/github/repo");
    expect(clonePath("p1")).toBe(join(dir, "repos", "p1.git"));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("is created 0700 by npm start, with its secrets files 0600", async () => {
    const dir = fresh();
    process.env.DATA_DIR = dir;
    const { persistentSecret, dataDir } = await import("@/scripts/services");
    expect(dataDir).toBe(dir);
    const secret = persistentSecret("auth-secret");
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(join(dir, "auth-secret"))).toBe(true);
    expect([statSync(dir).mode & 0o777, statSync(join(dir, "auth-secret")).mode & 0o777]).toEqual([0o700, 0o600]);
  });
});

describe("OAuth accounts", () => {
  it("keep the link to the provider account, never its tokens", async () => {
    const user = await getDb().user.create({ data: { email: `oauth-${Date.now()}@example.test` } });
    await authAdapter().linkAccount!({
      userId: user.id, type: "oauth", provider: "github", providerAccountId: `gh-${user.id}`,
      access_token: "gho_secretaccesstoken", refresh_token: "ghr_secretrefresh", id_token: "eyJ.secret.id", token_type: "bearer", scope: "read:user", expires_at: 123,
    });
    const row = await getDb().account.findFirstOrThrow({ where: { userId: user.id } });
    expect(row).toMatchObject({ provider: "github", providerAccountId: `gh-${user.id}`, access_token: null, refresh_token: null, id_token: null });
    expect(JSON.stringify(row)).not.toMatch(/secret/);
  });
});
