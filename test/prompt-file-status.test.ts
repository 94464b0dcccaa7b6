import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { runTick } from "@/lib/loop/tick";
import { promptsDir } from "@/lib/prompts/sync";
import { changePromptStatus } from "@/lib/prompts/transitions";
import { writeBackPromptStatuses } from "@/lib/prompts/write-back";
import { createTeamWithProject } from "./helpers/fixtures";
import { statementsOf, verbOf } from "./helpers/statements";

const FILE = "# written by a person\ntitle: Add search # keep this comment\npriority: 2\ndependencies: []\n";

async function projectWithPromptFile() {
  const fixture = await createTeamWithProject({ maxParallel: 1, cooldownMs: 0 });
  const dir = promptsDir(fixture.repoPath, "main");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "01-add-search.md");
  writeFileSync(path, `---\n${FILE}---\n\nBody stays as written.\n`);
  return { ...fixture, path };
}

const statusLine = (path: string) => /^status: (\w+)$/m.exec(readFileSync(path, "utf8"))?.[1] ?? null;

describe("prompt files' frontmatter status follows the prompt (seed 000)", () => {
  it("writes each change back into the file, keeping everything else as written", async () => {
    const { project, path } = await projectWithPromptFile();
    const db = getDb();
    expect(await runTick(project.id)).toMatchObject({ decision: { kind: "spawn_executor", promptNumber: 1 } });
    const prompt = await db.prompt.findFirstOrThrow({ where: { projectId: project.id } });
    expect(prompt.status).toBe("in_progress");

    await runTick(project.id);
    expect(statusLine(path)).toBe("in_progress");
    expect(readFileSync(path, "utf8")).toBe(`---\n${FILE}status: in_progress\n---\n\nBody stays as written.\n`);

    await db.run.updateMany({ where: { promptId: prompt.id }, data: { status: "succeeded" } });
    await changePromptStatus(prompt.id, { from: "in_progress", to: "done" });
    await runTick(project.id);
    expect(statusLine(path)).toBe("done");

    // A person sends it back: the file's old "done" is the loop's own, so it must not close the prompt again.
    await changePromptStatus(prompt.id, { from: "done", to: "pending" });
    await db.loopState.update({ where: { projectId: project.id }, data: { mode: "paused" } });
    await runTick(project.id);
    expect((await db.prompt.findUniqueOrThrow({ where: { id: prompt.id } })).status).toBe("pending");
    expect(statusLine(path)).toBe("pending");
  });

  it("writes a status back after the tick's spawn, not before it: the decision does not read the files", async () => {
    const { project, path } = await projectWithPromptFile();
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { maxParallel: 2 } });
    await runTick(project.id);
    writeFileSync(join(promptsDir(project.repoPath!, "main"), "02-next.md"), "---\ntitle: Next\n---\nThen this.\n");
    const { result, statements } = await statementsOf(() => runTick(project.id));
    expect(result).toMatchObject({ decision: { kind: "spawn_executor", promptNumber: 2 } });
    // After the new file's import: the profile, the claim, then prompt 1's status written back, then the tick's end.
    const verbs = statements.map(verbOf);
    expect(verbs.slice(verbs.indexOf("SELECT AgentProfile"))).toEqual(["SELECT AgentProfile", "WITH", "BEGIN", "UPDATE Prompt", "COMMIT", "WITH"]);
    expect(statusLine(path)).toBe("in_progress");
  });

  it("a status someone writes into the file still closes a pending prompt", async () => {
    const { project, path } = await projectWithPromptFile();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "paused" } });
    await runTick(project.id);
    writeFileSync(path, readFileSync(path, "utf8").replace("priority: 2\n", "priority: 2\nstatus: cancelled\n"));
    await runTick(project.id);
    expect((await getDb().prompt.findFirstOrThrow({ where: { projectId: project.id } })).status).toBe("cancelled");
  });

  it("waits for the file's lock: nothing is written while another writer holds it", async () => {
    const { project, path } = await projectWithPromptFile();
    await getDb().loopState.update({ where: { projectId: project.id }, data: { mode: "paused" } });
    await runTick(project.id);
    const prompt = await getDb().prompt.findFirstOrThrow({ where: { projectId: project.id } });
    await changePromptStatus(prompt.id, { from: "pending", to: "cancelled" });
    const before = readFileSync(path, "utf8");

    const release = await lockfile.lock(path, { realpath: false, stale: 60_000 });
    const rows = [{ ...prompt, status: "cancelled" as const }];
    expect(await writeBackPromptStatuses(project, rows)).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(before);
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).fileStatus).toBe("pending");

    await release();
    expect(await writeBackPromptStatuses(project, rows)).toBe(1);
    expect(statusLine(path)).toBe("cancelled");
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: prompt.id } })).fileStatus).toBe("cancelled");
  });
});
