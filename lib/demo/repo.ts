import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const gitEnv = {
  GIT_AUTHOR_NAME: "Ringmaster", GIT_AUTHOR_EMAIL: "ringmaster@localhost",
  GIT_COMMITTER_NAME: "Ringmaster", GIT_COMMITTER_EMAIL: "ringmaster@localhost",
};

/** A small local git repository on `main` for the demo project and the tests. */
export function createDemoRepo(path: string, files: Record<string, string> = { "README.md": "# Demo app\n\nBuilt by Ringmaster's demo agent.\n" }): string {
  if (existsSync(join(path, ".git"))) return path;
  mkdirSync(path, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: path, env: { ...gitEnv, PATH: "/usr/local/bin:/usr/bin:/bin", HOME: path } as unknown as NodeJS.ProcessEnv, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  for (const [name, content] of Object.entries(files)) writeFileSync(join(path, name), content);
  git("add", "-A");
  git("-c", "commit.gpgsign=false", "commit", "-q", "-m", "Initial commit");
  return path;
}
