"use client";

import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

export type BranchHead = { branch: string; sha: string; subject: string };

/** The branch head a successful check found: what the loop will branch from. */
export function HeadLine({ head }: { head: BranchHead }) {
  return (
    <p className="ok small" role="status" data-testid="branch-head">
      {head.branch} is at <code>{head.sha.slice(0, 10)}</code> “{head.subject}”
    </p>
  );
}

/** The set-up form's "Test" button: runs the server's checks on what is typed, changes nothing. */
export function useRepositoryTest() {
  return useApiMutation((v: { repoPath: string; baseBranch: string }) =>
    api<{ repoPath: string; head: BranchHead }>("/api/projects/repository-check", { method: "POST", body: v }));
}
