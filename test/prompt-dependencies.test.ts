// A prompt may depend only on prompts that exist in its project's plan: a dependency on a number
// nobody wrote would keep it waiting for ever. Refused with the numbers that do not exist.
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { POST as postPrompt } from "@/app/api/projects/[id]/prompts/route";
import { PATCH as patchPrompt } from "@/app/api/prompts/[id]/route";
import { POST as importPrompts } from "@/app/api/projects/[id]/prompts/import/route";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

const file = (n: number, deps: number[]) => ({ name: `${n}-x.md`, text: `---\nnumber: ${n}\ntitle: file ${n}\ndependencies: [${deps.join(", ")}]\n---\nbody\n` });

describe("prompt dependencies", () => {
  it("are refused on create, edit and import when they name prompts that do not exist, changing nothing", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    await addPrompt(other.project.id, { number: 7, title: "elsewhere", body: "" });
    const token = await apiToken(team.id);
    const one = await addPrompt(project.id, { number: 1, title: "one", body: "" });
    const count = () => getDb().prompt.count({ where: { projectId: project.id } });

    const created = await postPrompt(request("POST", `/api/projects/${project.id}/prompts`, token, { title: "two", dependencies: [1, 9, 7, 9] }), params(project.id));
    expect(created.status).toBe(400);
    expect((await created.json()).error).toMatchObject({ field: "dependencies", message: "Depends on names prompts #7, #9, which do not exist" });
    expect(await count()).toBe(1);

    const ok = await postPrompt(request("POST", `/api/projects/${project.id}/prompts`, token, { title: "two", dependencies: [1] }), params(project.id));
    expect(ok.status).toBe(201);
    const two = (await ok.json()).prompt;

    const edit = await patchPrompt(request("PATCH", `/api/prompts/${two.id}`, token, { dependencies: [1, 5] }), params(two.id));
    expect(edit.status).toBe(400);
    expect((await edit.json()).error).toMatchObject({ field: "dependencies", message: "Depends on names prompt #5, which does not exist" });
    expect((await getDb().prompt.findUniqueOrThrow({ where: { id: two.id } })).dependencies).toEqual([1]);
    expect((await patchPrompt(request("PATCH", `/api/prompts/${one.id}`, token, { dependencies: [2] }), params(one.id))).status).toBe(200);

    const imp = (files: unknown[]) => importPrompts(request("POST", `/api/projects/${project.id}/prompts/import`, token, { files }), params(project.id));
    const badImport = await imp([file(10, [11, 1]), file(11, [12])]);
    expect(badImport.status).toBe(400);
    expect((await badImport.json()).error).toMatchObject({ field: "files", message: "Prompt files names prompt #12, which does not exist" });
    expect(await count()).toBe(2);
    // Numbers of the same batch count as existing.
    expect((await imp([file(10, [11, 1]), file(11, [2])])).status).toBe(201);
    expect(await count()).toBe(4);
  });
});
