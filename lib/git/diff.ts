import { git } from "@/lib/git/run";

export type ChangedFile = {
  path: string;
  /** Set when git detected a rename. */
  previousPath?: string;
  insertions: number;
  deletions: number;
  binary: boolean;
};

export type DiffSummary = {
  files: number;
  insertions: number;
  deletions: number;
  changed: ChangedFile[];
};

// With -z, a record is "ins\tdel\tpath\0", or "ins\tdel\t\0old\0new\0" for a rename;
// binary files report "-" for both counts.
function parseNumstat(out: string): ChangedFile[] {
  const fields = out.split("\0");
  const changed: ChangedFile[] = [];
  for (let i = 0; i < fields.length; i++) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(fields[i]);
    if (!match) continue;
    const [, ins, del, inlinePath] = match;
    const file: ChangedFile = { path: inlinePath, insertions: Number(ins) || 0, deletions: Number(del) || 0, binary: ins === "-" };
    if (inlinePath === "") {
      file.previousPath = fields[++i];
      file.path = fields[++i];
    }
    changed.push(file);
  }
  return changed;
}

/**
 * What a run changed since baseSha: its commits plus uncommitted edits to tracked files
 * (untracked files show up once committed).
 */
export async function diffSummary(worktree: string, baseSha: string): Promise<DiffSummary> {
  const out = await git(worktree, ["diff", "--numstat", "-z", "--find-renames", baseSha, "--"]);
  const changed = parseNumstat(out);
  return {
    files: changed.length,
    insertions: changed.reduce((sum, file) => sum + file.insertions, 0),
    deletions: changed.reduce((sum, file) => sum + file.deletions, 0),
    changed,
  };
}
