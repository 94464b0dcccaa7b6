"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { ThreadSummaryJson } from "@/app/(dashboard)/_data/wire";
import { Receipt } from "./receipt";

/** The team's threads, newest first; new turns and receipts re-read it through the live stream. */
export function ThreadList({ initial }: { initial: ThreadSummaryJson[] }) {
  const { data: threads } = useQuery({
    queryKey: queryKeys.threads(),
    queryFn: () => api<{ threads: ThreadSummaryJson[] }>("/api/threads").then((r) => r.threads),
    initialData: initial,
  });
  if (threads.length === 0) return <div className="panel empty">No conversations yet.</div>;
  return (
    <ul className="thread-list">
      {threads.map((t) => (
        <li key={t.id}>
          <Link className="panel card-link" href={t.promptId ? `/prompts/${t.promptId}` : `/threads/${t.id}`}>
            <strong>{t.title ?? "Untitled"}</strong>{" "}
            <span className="muted small">{t.project.name}</span>{" "}
            {t.closedAt ? <span className="badge">closed</span> : t.waitingForUser ? <span className="badge paused">waiting for you</span> : null}
            {t.lastTurn && (
              <p className="small muted" style={{ margin: ".25rem 0 0" }}>
                {t.lastTurn.content.slice(0, 140)} <Receipt seq={null} status={t.lastTurn.status} />
              </p>
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
