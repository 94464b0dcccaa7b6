/**
 * A run's branch and commit on the repository's web host. The web address is the clone URL
 * without ".git" (github.com, or the operator's GitHub Enterprise); a clone URL that is no web
 * address (a path, ssh) gives no links.
 */
export function webLinks(cloneUrl: string, branch: string | null, sha: string | null): { branch: string | null; commit: string | null } | null {
  if (!/^https?:\/\//.test(cloneUrl)) return null;
  const repo = cloneUrl.replace(/\.git$/, "");
  return {
    branch: branch ? `${repo}/tree/${branch.split("/").map(encodeURIComponent).join("/")}` : null,
    commit: sha ? `${repo}/commit/${sha}` : null,
  };
}
