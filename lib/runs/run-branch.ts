import { branchExists } from "@/lib/git";

// A prompt sent back after a merge conflict starts a new branch; its old one is kept.
export async function freshBranchName(repoPath: string, name: string): Promise<string> {
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? name : `${name}-${i}`;
    if (!(await branchExists(repoPath, candidate))) return candidate;
  }
}
