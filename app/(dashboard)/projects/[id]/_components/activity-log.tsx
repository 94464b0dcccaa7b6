"use client";

import { useState } from "react";
import { Ago } from "@/app/(dashboard)/_ui/time";
import { useActivity } from "@/app/(dashboard)/_data/use-activity";

const filters = [
  { value: "", label: "Everything" },
  { value: "loopStatus", label: "Loop status" },
  { value: "taskAssigned", label: "Assigned" },
  { value: "taskCompleted", label: "Completed" },
  { value: "taskFailed", label: "Failed" },
  { value: "promptsChange", label: "Prompts" },
];

// The kinds of events in words; the message beside each is already a sentence.
const TYPE_WORDS: Record<string, string> = {
  loopStatus: "loop", taskAssigned: "started", taskCompleted: "done", taskFailed: "failed", promptsChange: "prompts",
  projectChange: "project", runChange: "run", started: "loop started", stopped: "loop stopped", paused: "paused", resumed: "resumed", allDone: "all done", error: "error",
};

export function ActivityLog({ projectId }: { projectId: string }) {
  const [type, setType] = useState("");
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage } = useActivity(projectId, type || undefined);
  const events = data?.pages.flat();
  return (
    <section className="panel" aria-label="Activity">
      <div className="row spread">
        <h2>Activity</h2>
        <label className="inline">Show{" "}
          <select value={type} onChange={(e) => setType(e.target.value)}>
            {filters.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
          </select>
        </label>
      </div>
      {events && events.length === 0 && <p className="muted">Nothing yet. Loop decisions, assignments and results appear here as they happen.</p>}
      <ol className="activity" data-testid="activity">
        {events?.map((e) => (
          <li key={e.id} className={`ev-${e.type}`}>
            <span className="small muted"><Ago at={e.createdAt} /></span> <span className="badge">{TYPE_WORDS[e.type] ?? e.type}</span> {e.message}
          </li>
        ))}
      </ol>
      {hasNextPage && (
        <button type="button" className="secondary small" disabled={isFetchingNextPage} onClick={() => fetchNextPage()}>Show older</button>
      )}
    </section>
  );
}
