import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { LRUCache } from "lru-cache";
import { git, headSha } from "@/lib/git";
import { languageOf, signatures } from "@/lib/campaigns/signatures";

export interface RepoMap {
  commit: string;
  /** The map: one line per tracked file, its top-level signatures indented beneath. */
  text: string;
  /** Bytes of the tracked files the map stands for, to hold the map to its budget. */
  sourceBytes: number;
}

// Files larger than this are listed but not parsed: they are data or generated, not design.
const MAX_PARSED_BYTES = 256 * 1024;

// Keyed by commit: the same commit always maps the same way, and a new commit is a new key.
const cache = new LRUCache<string, RepoMap>({ max: 32 });

/**
 * Seed 002's repo map for the architect: the file tree plus the top-level signatures (exports,
 * functions, classes, types; no bodies) of TypeScript/JavaScript, Python and Go files, read from
 * the checked-out commit of `worktree`. Built by Ringmaster, not by the agent, and cached per commit.
 */
export async function buildRepoMap(worktree: string): Promise<RepoMap> {
  const commit = await headSha(worktree);
  const hit = cache.get(commit);
  if (hit) return hit;
  const listed = await git(worktree, ["ls-files", "-z"]);
  const files = listed.split("\0").filter(Boolean).sort();
  const lines: string[] = [];
  let sourceBytes = 0;
  for (const path of files) {
    lines.push(path);
    const full = join(worktree, path);
    const size = await stat(full).then((s) => (s.isFile() ? s.size : 0), () => 0);
    sourceBytes += size;
    const lang = languageOf(path);
    if (!lang || size === 0 || size > MAX_PARSED_BYTES) continue;
    try {
      for (const sig of signatures(lang, await readFile(full, "utf8"))) lines.push(`  ${sig}`);
    } catch {
      // A file the grammar cannot read is still in the tree; its signatures are simply absent.
    }
  }
  const map = { commit, text: `${lines.join("\n")}\n`, sourceBytes };
  cache.set(commit, map);
  return map;
}

export const repoMapRatio = (map: RepoMap) => (map.sourceBytes === 0 ? 0 : Buffer.byteLength(map.text) / map.sourceBytes);
