import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git, gitCheck, GitError } from "@/lib/git/run";
import { commitFiles, makeSandbox, writeFiles } from "@/lib/git/testing";

describe("git", () => {
  it("resolves with stdout", async () => {
    const { repo } = await makeSandbox();
    expect((await git(repo, ["rev-parse", "--abbrev-ref", "HEAD"])).trim()).toBe("main");
  });

  it("rejects with a GitError naming the command, exit code and trimmed stderr", async () => {
    const { repo } = await makeSandbox();
    const error = await git(repo, ["rev-parse", "--verify", "nope"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    const gitError = error as GitError;
    expect(gitError.exitCode).toBe(128);
    expect(gitError.stderr).toBe("fatal: Needed a single revision");
    expect(gitError.message).toContain("git rev-parse --verify nope");
    expect(gitError.message).toContain("exit 128");
    expect(gitError.message).toContain("fatal: Needed a single revision");
  });

  it("commits as Ringmaster whatever the caller's config says", async () => {
    const { repo } = await makeSandbox();
    expect((await git(repo, ["log", "-1", "--format=%an <%ae>|%cn <%ce>"])).trim()).toBe(
      "Ringmaster <ringmaster@localhost>|Ringmaster <ringmaster@localhost>",
    );
  });

  it("writes what it adds to a git folder (object folders, ref folders, reflogs) writable by that folder's group, and makes no repository that keeps it so", async () => {
    const { repo } = await makeSandbox();
    const objects = join(repo, ".git", "objects");
    const before = new Set(await readdir(objects));
    await git(repo, ["checkout", "-q", "-b", "ringmaster/shared"]);
    await commitFiles(repo, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, `${i} ${Math.random()}\n`])), "many objects");
    const made = (await readdir(objects)).filter((d) => /^[0-9a-f]{2}$/.test(d) && !before.has(d));
    expect(made.length).toBeGreaterThan(0);
    const modes = async (paths: string[]) => Promise.all(paths.map(async (p) => ((await stat(p)).mode & 0o2070).toString(8)));
    expect(await modes(made.map((d) => join(objects, d)))).toEqual(made.map(() => "2070"));
    const git_ = join(repo, ".git");
    expect(await modes([join(git_, "refs", "heads", "ringmaster"), join(git_, "logs", "refs", "heads", "ringmaster")])).toEqual(["2070", "2070"]);
    expect(((await stat(join(git_, "logs", "refs", "heads", "ringmaster", "shared"))).mode & 0o060).toString(8)).toBe("60");
    // A repository made by init or clone records no sharing in its own config (the user's git would keep it).
    const fresh = await mkdtemp(join(tmpdir(), "rm-init-"));
    await git(fresh, ["init", "--quiet", "made"]);
    await git(fresh, ["clone", "--quiet", "--bare", repo, "cloned.git"]);
    for (const config of [join(fresh, "made", ".git", "config"), join(fresh, "cloned.git", "config")]) {
      expect(await readFile(config, "utf8")).not.toMatch(/sharedrepository/i);
    }
    await rm(fresh, { recursive: true, force: true });
  });

  it("retries while another process holds the index lock", async () => {
    const { repo } = await makeSandbox();
    await writeFiles(repo, { "a.txt": "a\n" });
    const lock = join(repo, ".git", "index.lock");
    await writeFile(lock, "");
    setTimeout(() => void rm(lock), 60);
    await git(repo, ["add", "a.txt"]);
    expect(await git(repo, ["diff", "--cached", "--name-only"])).toBe("a.txt\n");
  });

  it("retries a fetch that met a worktree being added (its HEAD still a zero id)", async () => {
    const { repo } = await makeSandbox();
    await git(repo, ["commit", "--allow-empty", "-q", "-m", "two"]);
    const bundle = join(repo, "..", "two.bundle");
    await git(repo, ["bundle", "create", "-q", bundle, "main~1..main"]);
    await git(repo, ["branch", "-f", "side", "main~1"]);
    await git(repo, ["worktree", "add", "-q", join(repo, "..", "wt"), "side"]);
    const head = join(repo, ".git", "worktrees", "wt", "HEAD");
    const real = await readFile(head, "utf8");
    await writeFile(head, `${"0".repeat(40)}\n`);
    setTimeout(() => void writeFile(head, real), 60);
    await git(repo, ["fetch", "-q", "--no-tags", bundle, "refs/heads/main:refs/heads/other"]);
    expect((await git(repo, ["rev-parse", "other"])).trim()).toBe((await git(repo, ["rev-parse", "main"])).trim());
  });

  it("gives up on a lock that never goes away", async () => {
    const { repo } = await makeSandbox();
    await writeFiles(repo, { "a.txt": "a\n" });
    await writeFile(join(repo, ".git", "index.lock"), "");
    await expect(git(repo, ["add", "a.txt"], { transientRetries: 1 })).rejects.toThrow(/index\.lock/);
  });
});

describe("gitCheck", () => {
  it("maps exit 0 and 1 to a yes or a no and throws otherwise", async () => {
    const { repo } = await makeSandbox();
    expect(await gitCheck(repo, ["diff", "--quiet"])).toBe(true);
    await writeFiles(repo, { "README.md": "changed\n" });
    expect(await gitCheck(repo, ["diff", "--quiet"])).toBe(false);
    await expect(gitCheck(repo, ["rev-parse", "--verify", "nope"])).rejects.toBeInstanceOf(GitError);
  });
});
