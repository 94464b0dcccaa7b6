// Factory's droid retries a 5xx from its model API for about 90 s and then exits 0 with no
// `completion` line (seen with the real droid 0.215.0 against the Chat Completions double). Such a
// run did not finish: it must fail, not succeed as "done (no changes)". A stand-in `droid` prints
// what the real one does in that case (its init line, then nothing) so the test need not wait 90 s.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { addPrompt, createTeamWithProject } from "./helpers/fixtures";
import { tickAndRun } from "./helpers/run-once";

const bin = mkdtempSync(join(tmpdir(), "rm-droid-"));
chmodSync(bin, 0o755); // the sandbox runs the agent as another user
const init = JSON.stringify({ type: "system", subtype: "init", cwd: "/w", session_id: "3f1c-droid-session", tools: ["Read", "Create"], model: "custom:double-gpt-5" });
writeFileSync(join(bin, "droid"), `#!/bin/sh\ncat >/dev/null\necho '${init}'\necho 'Retrying after 500 from the model API' >&2\nexit 0\n`);
chmodSync(join(bin, "droid"), 0o755);
Object.assign(process.env, { SANDBOX_READ_ONLY_PATHS: bin, PATH: `${bin}:${process.env.PATH}` });

describe("a droid run that ends without its result line", () => {
  it("is failed with the reason in its error and log, though droid exited 0", async () => {
    const { team, project } = await createTeamWithProject({ cooldownMs: 0 });
    const droid = await getDb().agentProfile.create({ data: { teamId: team.id, name: "droid", adapter: "droid" } });
    await getDb().projectSettings.update({ where: { projectId: project.id }, data: { executorProfileId: droid.id } });
    await addPrompt(project.id, { number: 1, title: "Write hello", body: "Write hello.txt." });

    const { run } = await tickAndRun(project.id);
    const log = (await getDb().runLog.findMany({ where: { runId: run!.id }, orderBy: { seq: "asc" } })).map((l) => l.content).join("\n");
    expect(run!.exitCode, log).toBe(0);
    expect(run!.status).toBe("failed");
    expect(run!.error).toBe("droid exited 0 without its final result line: the run did not finish");
    expect(run!.prompt!.status).not.toBe("done");
    expect(log).toContain("[ringmaster] droid exited 0 without its final result line: the run did not finish");
  });
});
