import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { promptsDir, syncPromptFiles } from "@/lib/prompts/sync";
import { activity, createBareProject } from "./helpers/runs";

async function projectWithFiles(files: Record<string, string> = {}) {
  const { project } = await createBareProject();
  const repoPath = mkdtempSync(join(tmpdir(), "rm-sync-"));
  const updated = await getDb().project.update({ where: { id: project.id }, data: { repoPath } });
  const dir = promptsDir(repoPath, "main");
  mkdirSync(dir, { recursive: true });
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  for (const [name, text] of Object.entries(files)) write(name, text);
  return { project: updated, dir, write };
}

const md = (fm: string, body = "Do it.\n") => `---\n${fm}\n---\n${body}`;
const prompts = (projectId: string) => getDb().prompt.findMany({ where: { projectId }, orderBy: { number: "asc" } });

describe("prompt files (seed 000)", () => {
  it("imports new files in name order and reports each once", async () => {
    const { project } = await projectWithFiles({
      "02-b.md": md("title: B\npriority: 1\ndependencies: [1]\nstatus: done"), "01-a.md": md("title: A"), "notes.txt": "not a prompt",
    });
    expect(await syncPromptFiles(project)).toBe(2);
    expect((await prompts(project.id)).map((p) => ({ number: p.number, title: p.title, body: p.body, status: p.status, priority: p.priority, dependencies: p.dependencies, origin: p.origin, filePath: p.filePath, planningKey: p.planningKey }))).toEqual([
      { number: 1, title: "A", body: "Do it.\n", status: "pending", priority: 3, dependencies: [], origin: "file", filePath: ".planning/main/prompts/01-a.md", planningKey: "main" },
      { number: 2, title: "B", body: "Do it.\n", status: "done", priority: 1, dependencies: [1], origin: "file", filePath: ".planning/main/prompts/02-b.md", planningKey: "main" },
    ]);
    expect((await activity(project.id)).map((a) => [a.type, a.message])).toEqual([
      ["promptsChange", "#1 A imported from .planning/main/prompts/01-a.md"],
      ["promptsChange", "#2 B imported from .planning/main/prompts/02-b.md"],
    ]);
    expect(await syncPromptFiles(project)).toBe(0);
  });

  it("reports a malformed or unreadable file once, skips it, and still imports the rest", async () => {
    const { project, dir } = await projectWithFiles({ "01-a.md": md("number: [oops"), "03-c.md": md("title: C") });
    mkdirSync(join(dir, "02-dir.md"));
    expect(await syncPromptFiles(project)).toBe(1);
    expect(await syncPromptFiles(project)).toBe(0);
    expect((await activity(project.id)).map((a) => a.type)).toEqual(["promptsChange", "promptsChange", "promptsChange"]);
    expect((await activity(project.id)).map((a) => a.message)).toEqual([
      "Prompt file skipped: 01-a.md: invalid YAML in frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1",
      "Prompt file skipped: 02-dir.md: unreadable (EISDIR: illegal operation on a directory, read)",
      "#3 C imported from .planning/main/prompts/03-c.md",
    ]);
  });

  it("takes each edit of a pending prompt's title, body, priority or dependencies from its file", async () => {
    const { project, write } = await projectWithFiles({ "01-a.md": md("title: A"), "02-b.md": md("title: B") });
    await syncPromptFiles(project);
    for (const [text, expected] of [
      [md("title: A2"), { title: "A2" }], [md("title: A2", "Again.\n"), { body: "Again.\n" }],
      [md("title: A2\npriority: 2", "Again.\n"), { priority: 2 }], [md("title: A2\npriority: 2\ndependencies: [2]", "Again.\n"), { dependencies: [2] }],
    ] as const) {
      write("01-a.md", text);
      expect(await syncPromptFiles(project)).toBe(1);
      expect((await prompts(project.id))[0]).toMatchObject({ ...expected, status: "pending" });
    }
    expect(await syncPromptFiles(project)).toBe(0);
  });

  it("lets a file close a pending prompt, but never touch one that runs or ran, or one from elsewhere", async () => {
    const { project, write } = await projectWithFiles({ "01-a.md": md("title: A"), "02-b.md": md("title: B"), "03-c.md": md("title: C") });
    await syncPromptFiles(project);
    write("01-a.md", md("title: A\nstatus: cancelled"));
    write("03-c.md", md("title: C\nstatus: failed"));
    expect(await syncPromptFiles(project)).toBe(1);
    expect((await prompts(project.id)).map((p) => p.status)).toEqual(["cancelled", "pending", "pending"]);
    // What the file says is remembered, for this prompt only: a closed one, and one whose file status no run takes.
    expect((await prompts(project.id)).map((p) => p.fileStatus)).toEqual(["cancelled", "pending", "failed"]);

    await getDb().prompt.updateMany({ where: { projectId: project.id, number: 2 }, data: { status: "in_progress" } });
    write("02-b.md", md("title: B edited\nstatus: done"));
    await getDb().prompt.updateMany({ where: { projectId: project.id, number: 3 }, data: { filePath: null } });
    write("03-c.md", md("title: C edited"));
    expect(await syncPromptFiles(project)).toBe(0);
    expect((await prompts(project.id)).map((p) => [p.title, p.status])).toEqual([["A", "cancelled"], ["B", "in_progress"], ["C", "pending"]]);
    // A running prompt's file status is still remembered, so it cannot close it later.
    expect((await prompts(project.id)).map((p) => p.fileStatus)).toEqual(["cancelled", "done", "failed"]);
  });

  it("reads only a local project's own planning key, and nothing without a folder", async () => {
    const { project, write } = await projectWithFiles({ "01-a.md": md("title: A") });
    await getDb().prompt.create({ data: { projectId: project.id, planningKey: "release", number: 1, title: "Other key", body: "" } });
    expect(await syncPromptFiles({ ...project, repoKind: "github" })).toBe(0);
    expect(await syncPromptFiles({ ...project, repoPath: null })).toBe(0);
    expect(await syncPromptFiles({ ...project, repoPath: mkdtempSync(join(tmpdir(), "rm-empty-")) })).toBe(0);
    expect(await syncPromptFiles(project)).toBe(1);
    expect((await prompts(project.id)).map((p) => [p.planningKey, p.title])).toEqual([["main", "A"], ["release", "Other key"]]);
    write("01-a.md", md("title: A edited"));
    expect(await syncPromptFiles({ ...project, planningKey: "release" })).toBe(0);
  });

  it("keeps its folder at .planning/<key>/prompts", () => {
    expect(promptsDir("/srv/repo", "release")).toBe("/srv/repo/.planning/release/prompts");
  });

  it("asks for approval of a pending prompt an agent could have written, under a policy that wants it; never of a closed one", async () => {
    const { project } = await projectWithFiles({ "01-a.md": md("title: A"), "02-b.md": md("title: B\nstatus: done") });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { approvalPolicy: "planner" } });
    expect(await syncPromptFiles(project)).toBe(2);
    expect((await prompts(project.id)).map((p) => [p.title, p.approval])).toEqual([["A", "pending"], ["B", "not_required"]]);
    const approvals = await getDb().approval.findMany({ where: { projectId: project.id } });
    const [a] = await prompts(project.id);
    expect(approvals.map((x) => [x.teamId, x.projectId, x.kind, x.status, x.promptId, x.requestedBy])).toEqual([
      [project.teamId, project.id, "prompt_run", "pending", a.id, "system"],
    ]);
  });

  it("imports without approval when the policy asks for none", async () => {
    const { project } = await projectWithFiles({ "01-a.md": md("title: A") });
    expect(await syncPromptFiles(project)).toBe(1);
    expect((await prompts(project.id)).map((p) => p.approval)).toEqual(["not_required"]);
    expect(await getDb().approval.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("closes a pending prompt whose file says done, and leaves one re-queued while its file still says done", async () => {
    const { project, write } = await projectWithFiles({ "01-a.md": md("title: A"), "02-b.md": md("title: B\nstatus: done") });
    await syncPromptFiles(project);
    write("01-a.md", md("title: A\nstatus: done"));
    // A person sends B back to the queue; its file still says done, as it did when imported.
    await getDb().prompt.updateMany({ where: { projectId: project.id, number: 2 }, data: { status: "pending" } });
    expect(await syncPromptFiles(project)).toBe(1);
    expect((await prompts(project.id)).map((p) => [p.status, p.fileStatus])).toEqual([["done", "done"], ["pending", "done"]]);
  });
});
