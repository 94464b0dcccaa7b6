"use client";

import Link from "next/link";
import { useState } from "react";
import { useLiveEvents } from "@/app/(dashboard)/_live/live-provider";

interface Toast { id: string; ok: boolean; message: string; runId?: string }

const SHOWN = 4;

/** A toast when a run of this project finishes or fails, so the board need not be watched. */
export function RunToasts({ projectId }: { projectId: string }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useLiveEvents((e) => {
    if (e.projectId !== projectId || (e.type !== "taskCompleted" && e.type !== "taskFailed")) return;
    const toast = { id: e.id, ok: e.type === "taskCompleted", message: e.message ?? (e.type === "taskCompleted" ? "A run finished" : "A run failed"), runId: e.runId };
    setToasts((list) => [...list.filter((t) => t.id !== toast.id), toast].slice(-SHOWN));
  });
  if (toasts.length === 0) return null;
  return (
    <div className="toasts" role="status" aria-live="polite" data-testid="toasts">
      {toasts.map((t) => (
        <div key={t.id} className={`toast ${t.ok ? "ok" : "failed"}`}>
          <span>{t.ok ? "✓" : "✗"} {t.message}</span>
          {t.runId && <Link href={`/runs/${t.runId}`}>Open run</Link>}
          <button type="button" className="icon" aria-label="Dismiss" onClick={() => setToasts((list) => list.filter((x) => x.id !== t.id))}>×</button>
        </div>
      ))}
    </div>
  );
}
