"use client";

import type { PromptRow } from "@/app/(dashboard)/_data/wire";
import { usePrompts } from "@/app/(dashboard)/_data/use-prompts";
import { PromptCard } from "./prompt-card";
import { NewPromptForm } from "./new-prompt-form";
import { ImportPrompts } from "./import-prompts";

const columns: Array<{ status: PromptRow["status"]; title: string }> = [
  { status: "pending", title: "Pending" },
  { status: "in_progress", title: "In progress" },
  { status: "done", title: "Done" },
  { status: "failed", title: "Failed" },
  { status: "cancelled", title: "Cancelled" },
];

const byPriorityThenNumber = (a: PromptRow, b: PromptRow) => a.priority - b.priority || a.number - b.number;

export function PromptBoard({ projectId, canOperate }: { projectId: string; canOperate: boolean }) {
  const { data: prompts, error } = usePrompts(projectId);
  if (error) return <p className="error">Could not load prompts: {error.message}</p>;
  const all = prompts ?? [];
  const statusOf = new Map(all.map((p) => [p.number, p.status]));
  return (
    <section aria-label="Prompts">
      <div className="row spread">
        <h2>Prompts</h2>
        {canOperate && <ImportPrompts projectId={projectId} />}
      </div>
      {canOperate && <NewPromptForm projectId={projectId} numbers={all.map((p) => p.number)} />}
      {prompts && all.length === 0 && (
        <div className="panel empty">
          <p><strong>No prompts yet.</strong> A prompt is one unit of work for an agent: add one above, import prompt files,
            or let the planner propose work when the queue runs dry. Start the loop (<kbd>o</kbd>) and the next eligible prompt runs.</p>
        </div>
      )}
      {/* Until the prompts arrive the columns show placeholders: "Done 0" would be a claim, not a fact. */}
      {!prompts && (
        <div className="board" aria-busy="true" data-testid="board-loading">
          {columns.map((col) => (
            <div className="column" key={col.status}>
              <h3>{col.title}</h3>
              <div className="card skeleton" aria-hidden="true" />
            </div>
          ))}
        </div>
      )}
      {prompts && <div className="board">
        {columns.map((col) => {
          const items = all.filter((p) => p.status === col.status).sort(byPriorityThenNumber);
          return (
            <div className="column" key={col.status} data-testid={`column-${col.status}`}>
              <h3>{col.title} <span className="muted">{items.length}</span></h3>
              {items.map((p) => (
                <PromptCard key={p.id} projectId={projectId} prompt={p} canOperate={canOperate}
                  blockedBy={p.dependencies.filter((d) => statusOf.get(d) !== "done")} />
              ))}
            </div>
          );
        })}
      </div>}
    </section>
  );
}
