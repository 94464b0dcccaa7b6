"use client";

import { ConfirmButton } from "@/app/(dashboard)/_ui/confirm-button";
import { useEffect } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { useProject } from "@/app/(dashboard)/_data/use-project";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

type LoopBody = { action: "start" | "stop" | "pause" | "resume" | "tick" } | { action: "loop" | "parallel"; enabled: boolean };

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));

/** Seed 000's controls: Loop (o) and Parallel (p) toggles; seed 003's start/pause/resume/stop. */
export function LoopControls({ projectId, canOperate }: { projectId: string; canOperate: boolean }) {
  const { data: project } = useProject(projectId);
  const act = useApiMutation((body: LoopBody) => api(`/api/projects/${projectId}/loop`, { method: "POST", body }), { invalidate: [queryKeys.project(projectId)] });
  const override = useApiMutation((period: "day" | "month") => api(`/api/projects/${projectId}/budget-override`, { method: "POST", body: { scope: "project", period } }),
    { invalidate: [queryKeys.project(projectId)] });
  const mode = project?.loop.mode ?? "stopped";
  const parallel = project?.settings?.parallelEnabled ?? true;

  useEffect(() => {
    if (!canOperate) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || typing(e.target)) return;
      if (e.key === "o") act.mutate({ action: "loop", enabled: mode !== "running" });
      if (e.key === "p") act.mutate({ action: "parallel", enabled: !parallel });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [canOperate, mode, parallel, act]);

  if (!project) return <div className="panel controls skeleton" aria-busy="true" />;
  const busy = act.isPending || !canOperate;
  const backoff = project.loop.planner.unproductiveSpawns;
  return (
    <section className="panel controls" aria-label="Loop controls">
      <div className="row">
        <span className={`badge ${mode}`} data-testid="loop-mode">loop {mode}</span>
        <button type="button" role="switch" aria-checked={mode === "running"} disabled={busy} aria-keyshortcuts="o"
          onClick={() => act.mutate({ action: "loop", enabled: mode !== "running" })}>
          Loop <kbd>o</kbd>
        </button>
        <button type="button" role="switch" aria-checked={parallel} disabled={busy} aria-keyshortcuts="p" className="secondary"
          title="Off: one prompt at a time, each started from a base that holds the previous one's merge (on GitHub, its pull request's merge)"
          onClick={() => act.mutate({ action: "parallel", enabled: !parallel })}>
          Parallel {parallel ? `on (≤ ${project.settings?.maxParallel})` : "off"} <kbd>p</kbd>
        </button>
        {mode === "running" && <button type="button" className="secondary" disabled={busy} onClick={() => act.mutate({ action: "pause" })}>Pause</button>}
        {mode === "paused" && <button type="button" className="secondary" disabled={busy} onClick={() => act.mutate({ action: "resume" })}>Resume</button>}
        {(mode === "running" || mode === "paused") && (
          <ConfirmButton label="Stop" className="secondary" disabled={busy} question="Stop the loop? Running agents finish; nothing new starts." yes="Yes, stop" onConfirm={() => act.mutate({ action: "stop" })} />
        )}
        <button type="button" className="secondary" disabled={busy} onClick={() => act.mutate({ action: "tick" })}>Force tick</button>
      </div>
      <p className="status-line" data-testid="loop-status">{project.loop.lastStatus ?? "No tick yet"}</p>
      {mode === "paused" && project.loop.pauseReason && (
        <div className="row wrap">
          <p className="warn small" data-testid="pause-reason">Paused: {project.loop.pauseReason}</p>
          {/* Owners only; the server says so to anyone else. Raising the budget is in the settings. */}
          <button type="button" className="secondary" disabled={busy || override.isPending} onClick={() => override.mutate("day")}>Override today&apos;s budget</button>
          <button type="button" className="secondary" disabled={busy || override.isPending} onClick={() => override.mutate("month")}>Override this month&apos;s</button>
        </div>
      )}
      {override.error && <p className="error" role="alert">{override.error.message}</p>}
      <p className="muted small">
        Branch {project.activeBranch ?? project.baseBranch} · planning key {project.planningKey} · tick #{project.loop.tickCount}
        {backoff > 0 && <> · planner backoff: {backoff} unproductive spawn{backoff === 1 ? "" : "s"}</>}
      </p>
      {!canOperate && <p className="muted small" data-testid="why-disabled">You can watch this project; operators, admins and owners control its loop.</p>}
      {act.error && <p className="error" role="alert">{act.error.message}</p>}
    </section>
  );
}
