import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { errorCode } from "@/lib/git/worktree-pool-entry";

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

// The repository's own git folder when git keeps refs there as files; null otherwise (a linked
// worktree, a gitfile, the reftable backend): then only git itself can answer.
async function filesBackend(repoPath: string): Promise<string | null> {
  const dotGit = join(repoPath, ".git");
  const kind = await stat(dotGit).catch(() => null);
  const common = kind?.isDirectory() ? dotGit : kind ? null : repoPath;
  if (!common) return null;
  const [refs, commondir, reftable] = await Promise.all(["refs", "commondir", "reftable"].map((f) => stat(join(common, f)).catch(() => null)));
  return refs?.isDirectory() && !commondir && !reftable ? common : null;
}

/**
 * Local branches' tips read from git's files (a loose ref, else packed-refs) without starting
 * git: a branch that does not exist maps to null. Null as a whole when the files cannot answer
 * for sure; ask git then. Git writes both files whole (lock, then rename), so a read sees a ref
 * before or after a change, as a `git for-each-ref` started a moment earlier or later would.
 */
export async function readBranchTips(repoPath: string, branches: readonly string[]): Promise<Map<string, string | null> | null> {
  const common = await filesBackend(repoPath);
  if (!common) return null;
  const tips = new Map<string, string | null>();
  let packed: Map<string, string> | undefined;
  for (const branch of branches) {
    const ref = `refs/heads/${branch}`;
    let loose: string | null = null;
    try {
      loose = (await readFile(join(common, ref), "utf8")).trim();
    } catch (error) {
      // Missing, or a folder or file in the way (`a/b` beside `a`): not a loose ref.
      if (!["ENOENT", "EISDIR", "ENOTDIR"].includes(errorCode(error) ?? "")) throw error;
    }
    if (loose !== null) {
      if (!SHA.test(loose)) return null;
      tips.set(branch, loose);
      continue;
    }
    packed ??= await readPacked(common);
    tips.set(branch, packed.get(ref) ?? null);
  }
  return tips;
}

async function readPacked(common: string): Promise<Map<string, string>> {
  const text = await readFile(join(common, "packed-refs"), "utf8").catch((error) => {
    if (errorCode(error) === "ENOENT") return "";
    throw error;
  });
  const refs = new Map<string, string>();
  for (const line of text.split("\n")) {
    const space = line.indexOf(" ");
    // Comments (#) and peeled tags (^) have no space-separated sha and name.
    if (space > 0 && SHA.test(line.slice(0, space))) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}
