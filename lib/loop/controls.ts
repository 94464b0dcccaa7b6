import { LIVE_RUN_STATUSES } from "@/lib/loop/load";
import { getDb, type LoopMode } from "@/lib/db";
import { enqueueTick } from "@/lib/queues";
import { recordActivity } from "@/lib/loop/activity";
import { planningKeyForBranch } from "@/lib/prompts/names";
import type { EventType } from "@/lib/events/streams";
import { recordAudit, SYSTEM, type AuditBy } from "@/lib/audit/record";

type Project = { id: string; teamId: string };

// Seed 003's autopilot transitions. Seed 000's Loop toggle is start ⇄ stop, and any
// toggle resets the planner backoff.
const transitions: Record<"start" | "stop" | "pause" | "resume", { from: LoopMode[]; event: EventType; message: string }> = {
  start: { from: ["stopped", "stopping", "paused"], event: "started", message: "Loop started" },
  stop: { from: ["running", "paused"], event: "stopped", message: "Loop stopping: no new agents; running ones finish" },
  pause: { from: ["running"], event: "paused", message: "Loop paused: running agents continue" },
  resume: { from: ["paused"], event: "resumed", message: "Loop resumed" },
};

export class ControlError extends Error {
  constructor(readonly field: string, message: string, readonly status: 400 | 409 = 409) {
    super(message);
  }
}

export async function changeLoopMode(project: Project, action: keyof typeof transitions, by: AuditBy = SYSTEM): Promise<LoopMode> {
  const t = transitions[action];
  const db = getDb();
  const state = await db.loopState.findUniqueOrThrow({ where: { projectId: project.id } });
  if (!t.from.includes(state.mode)) {
    if ((action === "start" || action === "resume") && state.mode === "running") return state.mode;
    if (action === "stop" && (state.mode === "stopped" || state.mode === "stopping")) return state.mode;
    throw new ControlError("action", `cannot ${action} a loop that is ${state.mode}`);
  }
  let mode: LoopMode = action === "stop" ? "stopping" : action === "pause" ? "paused" : "running";
  if (action === "stop") {
    const live = await db.run.count({ where: { projectId: project.id, status: { in: [...LIVE_RUN_STATUSES] } } });
    if (live === 0) mode = "stopped";
  }
  const updated = await db.loopState.updateMany({
    where: { projectId: project.id, mode: state.mode },
    data: { mode, ...(action === "start" || action === "stop" ? { emergentSpawnCount: 0 } : {}) },
  });
  if (updated.count === 0) throw new ControlError("action", "the loop changed meanwhile; try again");
  await recordAudit({ teamId: project.teamId, by, action: `loop.${action}`, target: { type: "project", id: project.id }, before: { mode: state.mode }, after: { mode } });
  await recordActivity(project, t.event, mode === "stopped" ? "Loop stopped" : t.message);
  await enqueueTick(project.id, `loop ${action}`);
  return mode;
}

export async function setLoopEnabled(project: Project, enabled: boolean, by: AuditBy = SYSTEM): Promise<LoopMode> {
  return changeLoopMode(project, enabled ? "start" : "stop", by);
}

export async function setParallel(project: Project, enabled: boolean, by: AuditBy = SYSTEM): Promise<void> {
  await getDb().projectSettings.update({ where: { projectId: project.id }, data: { parallelEnabled: enabled } });
  await recordAudit({ teamId: project.teamId, by, action: "loop.parallel", target: { type: "project", id: project.id }, after: { parallelEnabled: enabled } });
  await recordActivity(project, "loopStatus", `Parallel ${enabled ? "on" : "off"}`);
  // Seed 000: enabling parallel forces a tick so a free slot fills without waiting.
  await enqueueTick(project.id, "parallel toggled");
}

export async function forceTick(project: Project): Promise<void> {
  await enqueueTick(project.id, "force tick");
}

/** Seed 000's setBranchContext: the caller changed branch itself; adopt it without re-detecting. */
export async function setBranchContext(project: Project, branch: string, by: AuditBy = SYSTEM): Promise<string> {
  const name = branch.trim();
  if (!name || name.length > 200 || /[\s~^:?*[\\]/.test(name)) throw new ControlError("branch", "is not a valid branch name", 400);
  const planningKey = planningKeyForBranch(name);
  await getDb().project.update({ where: { id: project.id }, data: { activeBranch: name, planningKey } });
  await recordAudit({ teamId: project.teamId, by, action: "loop.branch", target: { type: "project", id: project.id }, after: { activeBranch: name, planningKey } });
  await recordActivity(project, "branchChange", `Branch set to ${name} (planning key ${planningKey})`);
  await enqueueTick(project.id, "branch override");
  return planningKey;
}
