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
export async function diffSummary(worktree: string, baseSha: string, headSha?: string): Promise<DiffSummary> {
  const out = await git(worktree, ["diff", "--numstat", "-z", "--find-renames", baseSha, ...(headSha ? [headSha] : []), "--"]);
  const changed = parseNumstat(out);
  return {
    files: changed.length,
    insertions: changed.reduce((sum, file) => sum + file.insertions, 0),
    deletions: changed.reduce((sum, file) => sum + file.deletions, 0),
    changed,
  };
}

export type DiffPatch = { patch: string; truncated: boolean };

// An agent can rewrite a generated file of megabytes: the page shows the reviewable part and
// says what it left out, and git's output stays bounded because only files within budget are asked for.
export const PATCH_LIMITS = { lines: 20_000, bytes: 1_000_000 };

/**
 * The unified diff of what a run changed since baseSha (to headSha, or to the worktree's
 * files when headSha is absent), file by file until the limits are reached.
 */
export async function diffPatch(worktree: string, baseSha: string, changed: ChangedFile[], headSha?: string, limits = PATCH_LIMITS): Promise<DiffPatch> {
  const chosen: ChangedFile[] = [];
  let lines = 0;
  for (const file of changed) {
    lines += file.insertions + file.deletions;
    if (lines > limits.lines) break;
    chosen.push(file);
  }
  const paths = chosen.flatMap((f) => [f.path, ...(f.previousPath ? [f.previousPath] : [])]).map((p) => `:(literal)${p}`);
  let patch = paths.length
    ? await git(worktree, ["diff", "--find-renames", "--no-color", baseSha, ...(headSha ? [headSha] : []), "--", ...paths])
    : "";
  let truncated = chosen.length < changed.length;
  if (patch.length > limits.bytes) {
    // Cut at the start of a file's section, so the renderer never sees half a hunk.
    const cut = patch.lastIndexOf("\ndiff --git ", limits.bytes);
    patch = cut > 0 ? patch.slice(0, cut + 1) : "";
    truncated = true;
  }
  return { patch, truncated };
}
