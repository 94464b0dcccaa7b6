import { ControlError } from "@/lib/errors";
import { LIVE_RUN_STATUSES } from "@/lib/run-statuses";
import { getDb, type LoopMode } from "@/lib/db";
import { sendViaOutbox } from "@/lib/queues";
import { planningKeyForBranch } from "@/lib/prompts/names";
import { isValidBranchName } from "@/lib/git/ref-name";
import type { EventType } from "@/lib/events/streams";
import { SYSTEM, type AuditBy } from "@/lib/audit/record";
import { commitChange } from "@/lib/activity/change";

type Project = { id: string; teamId: string };

// Seed 003's autopilot transitions. Seed 000's Loop toggle is start ⇄ stop, and any
// toggle resets the planner backoff.
const transitions: Record<"start" | "stop" | "pause" | "resume", { from: LoopMode[]; event: EventType; message: string }> = {
  start: { from: ["stopped", "stopping", "paused"], event: "started", message: "Loop started" },
  stop: { from: ["running", "paused"], event: "stopped", message: "Loop stopping: no new agents; running ones finish" },
  pause: { from: ["running"], event: "paused", message: "Loop paused: running agents continue" },
  resume: { from: ["paused"], event: "resumed", message: "Loop resumed" },
};

/**
 * `why` says why the system changed the loop: shown as the activity message, and for a pause (a
 * spent budget) kept on the loop so the project's card shows it until a person acts.
 */
export async function changeLoopMode(project: Project, action: keyof typeof transitions, by: AuditBy = SYSTEM, why?: string): Promise<LoopMode> {
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
  await commitChange(project, async (tx) => {
    const updated = await tx.loopState.updateMany({
      where: { projectId: project.id, mode: state.mode },
      data: { mode, pauseReason: action === "pause" ? why ?? null : null, ...(action === "start" || action === "stop" ? { emergentSpawnCount: 0 } : {}) },
    });
    if (updated.count === 0) throw new ControlError("action", "the loop changed meanwhile; try again");
  }, () => ({
    audit: { by, action: `loop.${action}`, target: { type: "project", id: project.id }, before: { mode: state.mode }, after: { mode, ...(why ? { reason: why } : {}) } },
    activity: [t.event, why ? (action === "pause" ? `Loop paused: ${why}` : why) : mode === "stopped" ? "Loop stopped" : t.message],
    nudge: `loop ${action}`,
    // A stopped loop has no periodic tick (it would cost a tick a second for nothing); a started one gets it back.
    wakeUps: [{ kind: "schedule", projectId: project.id }],
  }));
  return mode;
}

export async function setLoopEnabled(project: Project, enabled: boolean, by: AuditBy = SYSTEM): Promise<LoopMode> {
  return changeLoopMode(project, enabled ? "start" : "stop", by);
}

export async function setParallel(project: Project, enabled: boolean, by: AuditBy = SYSTEM): Promise<void> {
  // Seed 000: enabling parallel forces a tick so a free slot fills without waiting.
  await commitChange(project, (tx) => tx.projectSettings.update({ where: { projectId: project.id }, data: { parallelEnabled: enabled } }), () => ({
    audit: { by, action: "loop.parallel", target: { type: "project", id: project.id }, after: { parallelEnabled: enabled } },
    activity: ["loopStatus", `Parallel ${enabled ? "on" : "off"}`],
    nudge: "parallel toggled",
  }));
}

export async function forceTick(project: Project): Promise<void> {
  await sendViaOutbox([{ kind: "tick", projectId: project.id, reason: "force tick" }]);
}

/** Seed 000's setBranchContext: the caller changed branch itself; adopt it without re-detecting. */
export async function setBranchContext(project: Project, branch: string, by: AuditBy = SYSTEM): Promise<string> {
  const name = branch.trim();
  if (!isValidBranchName(name)) throw new ControlError("branch", "is not a valid branch name (git check-ref-format refuses it)", 400);
  const planningKey = planningKeyForBranch(name);
  await commitChange(project, (tx) => tx.project.update({ where: { id: project.id }, data: { activeBranch: name, planningKey } }), () => ({
    audit: { by, action: "loop.branch", target: { type: "project", id: project.id }, after: { activeBranch: name, planningKey } },
    activity: ["branchChange", `Branch set to ${name} (planning key ${planningKey})`],
    nudge: "branch override",
  }));
  return planningKey;
}
