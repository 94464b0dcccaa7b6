import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach } from "vitest";
import { git } from "@/lib/git/run";

export type Sandbox = {
  /** A repository on `main` with one commit (README.md). */
  repo: string;
  /** A directory outside the repository for worktrees. */
  worktrees: string;
};

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
});

async function tempRoot(): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), "ringmaster-git-")));
}

// Copying one prepared repository is several times faster than init and commit per test.
let template: Promise<string> | undefined;
async function makeTemplate(): Promise<string> {
  const repo = join(await tempRoot(), "repo");
  await mkdir(repo);
  await git(repo, ["init", "--quiet", "--initial-branch=main", "--template="]);
  await commitFiles(repo, { "README.md": "hello\n" }, "initial");
  return repo;
}
afterAll(async () => {
  if (template) await rm(dirname(await template), { recursive: true, force: true });
});

/** A fresh repository in a temp dir, deleted after the test. */
export async function makeSandbox(): Promise<Sandbox> {
  template ??= makeTemplate();
  const root = await tempRoot();
  made.push(root);
  const repo = join(root, "repo");
  await cp(await template, repo, { recursive: true });
  return { repo, worktrees: join(root, "worktrees") };
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

/** Commits on whatever is checked out, base branch included: fixtures play the user's part. */
export async function commitFiles(dir: string, files: Record<string, string>, message: string): Promise<string> {
  await writeFiles(dir, files);
  await git(dir, ["add", "--all"]);
  await git(dir, ["commit", "--quiet", "--message", message]);
  return (await git(dir, ["rev-parse", "HEAD"])).trim();
}
