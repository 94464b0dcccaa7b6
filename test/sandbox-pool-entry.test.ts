// A run that takes a worktree of the pool prepared at the base tip enters its sandbox without
// asking git for its paths or walking the repository on its path: the pool shared the worktree
// and its git entry when it filled it, the repository's objects, reflogs and the branch's ref
// folder are looked at beside the checkout, and our own git writes them group-writable. The
// agent's own git must still work there, after a merge made new object and ref folders as root.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "@/lib/git";
import { getDb } from "@/lib/db";
import { poolFillsSettled } from "@/lib/runs/worktree-pool";
import { shareRunRepository } from "@/lib/runs/sandbox";
import { getSandboxStatus } from "@/lib/sandbox/status";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

// The agent commits on its own, as the sandbox's user, three files whose objects land in folders
// a merge may just have made; its branch's reflog is started by that commit. It leaves one file
// for Ringmaster's commit, whose objects our git (root) writes.
const AGENT = `echo "branch's group: $(stat -c %g "$(git rev-parse --git-common-dir)/refs/heads/$(git branch --show-current)")"
for i in 1 2 3; do echo "$RANDOM $i $(date +%s%N)" > "agent-$i-$(date +%s%N).txt"; done
git add -A && git -c user.name=agent -c user.email=agent@a.test commit --quiet -m "agent's own commit" && echo committed
echo "git entry: $(basename "$(git rev-parse --git-dir)")"
echo "left for Ringmaster's commit $(date +%s%N)" > left.txt`;

describe("a run in a worktree of the pool prepared at the tip", () => {
  it("enters the sandbox where the agent's own git commits, run after run, each merged as root in between", async () => {
    const status = await getSandboxStatus();
    if (!status.ok || !status.host.user) return; // Without a sandbox user, nothing is shared at all.
    const user = status.host.user;
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const profile = await getDb().agentProfile.create({ data: { teamId: team.id, name: "committer", adapter: "shell", commandTemplate: AGENT } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: profile.id } });
    const repo = (await getDb().project.findUniqueOrThrow({ where: { id: project.id } })).repoPath!;

    for (let n = 1; n <= 3; n++) {
      await addPrompt(project.id, { number: n, title: `Commit ${n}`, body: "" });
      const run = (await tickAndRun(project.id)).run!;
      const log = (await getDb().runLog.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
      expect([run.status, run.mergeStatus], log).toEqual(["succeeded", "merged"]);
      expect(log).toContain("committed");
      expect((await git(repo, ["log", "--format=%an %s", "-3", "main"])).trim().split("\n")).toContain("agent agent's own commit");
      // The first run checked out a worktree (the pool was empty); the later ones took the pool's
      // at the tip, prepared for this sandbox user's group (its git entry is named so).
      const entry = /git entry: (\S+)/.exec(log)?.[1];
      if (n > 1) expect(entry, log).toMatch(new RegExp(`^[0-9a-f]{40}-[0-9a-f]{8}\\.group-${user.gid}$`));
      // The take made the branch (as root, without git) in its ref folder once that was the group's:
      // the ref is the group's too, so the next start's look finds nothing to walk (no process).
      if (n > 1) expect(/branch's group: (\d+)/.exec(log)?.[1], log).toBe(String(user.gid));
      // The merge (our git, as root) and the refill of the pool settle before the next prompt.
      await poolFillsSettled();
    }
    // What our git made in the repository's shared parts (as root) is the sandbox group's and
    // writable by it; what the agents' git made is their user's own.
    const common = join(repo, ".git");
    for (const dir of ["objects", "logs"]) {
      for (const entry of readdirSync(join(common, dir), { recursive: true, encoding: "utf8" })) {
        const st = lstatSync(join(common, dir, entry));
        if (!st.isDirectory()) continue;
        const writable = st.uid === user.uid ? (st.mode & 0o2700).toString(8) : (st.mode & 0o2070).toString(8);
        expect([entry, st.uid === 0 || st.uid === user.uid, st.gid, writable]).toEqual([entry, true, user.gid, st.uid === user.uid ? "2700" : "2070"]);
      }
    }
  }, 120_000);

  it("starts with the branch's ref folder made and shared, so that the branch the take makes in it is the group's", async () => {
    const status = await getSandboxStatus();
    if (!status.ok || !status.host.user) return;
    const user = status.host.user;
    const { project } = await createTeamWithProject({ loopEnabled: false });
    const repo = (await getDb().project.findUniqueOrThrow({ where: { id: project.id } })).repoPath!;
    const folder = join(repo, ".git", "refs", "heads", "ringmaster", "deep");
    const share = shareRunRepository(repo, "ringmaster/deep/7-x");
    await share.branchFolder;
    const st = lstatSync(folder);
    expect([st.isDirectory(), st.gid, (st.mode & 0o2070).toString(8)]).toEqual([true, user.gid, "2070"]);
    expect(await share.shared).toBe(true);
    // A repository that is none: nothing to wait for, and nothing shared.
    const none = shareRunRepository(join(repo, "missing"), "ringmaster/1-x");
    await none.branchFolder;
    expect(await none.shared).toBe(false);
  });
});
