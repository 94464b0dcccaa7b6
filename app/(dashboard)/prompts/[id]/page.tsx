import Link from "next/link";
import Markdown from "react-markdown";
import { requirePromptProject } from "@/lib/auth/objects";
import { getPromptDetail } from "@/lib/prompts/queries";
import { roleAtLeast } from "@/lib/auth/access";
import { orNotFound, requirePageActor } from "@/app/(dashboard)/current";
import { ensurePromptThread } from "@/lib/threads/create";
import { ThreadView } from "@/app/(dashboard)/threads/_components/thread-view";
import { EditPrompt } from "./edit-prompt";
import { RetryPrompt } from "./retry-prompt";
import { attemptsText, runBadge } from "@/lib/run-statuses";
import { PromptSource } from "@/app/(dashboard)/_ui/prompt-source";

export const dynamic = "force-dynamic";

export default async function PromptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer, actor } = await requirePageActor();
  await orNotFound(requirePromptProject(actor, id));
  const prompt = await getPromptDetail(id);
  const canEdit = roleAtLeast(viewer.role, "operator");
  const thread = await ensurePromptThread(prompt);
  return (
    <div className="prompt">
      <p className="muted"><Link href={`/projects/${prompt.project.id}`}>{prompt.project.name}</Link></p>
      <h1>#{prompt.number} {prompt.title} <span className={`badge ${prompt.status}`} data-testid="prompt-status">{prompt.status}</span></h1>
      <p className="muted small">
        P{prompt.priority} · {prompt.dependencies.length ? `after ${prompt.dependencies.map((d) => `#${d}`).join(", ")}` : "no dependencies"}
        {" · "}from {prompt.origin} · <span data-testid="prompt-attempts">{attemptsText(prompt.attempts, prompt.maxAttempts)}</span>{prompt.domain ? ` · domain ${prompt.domain}` : ""}
      </p>
      <PromptSource sourceUrl={prompt.sourceUrl} agentName={prompt.pinnedAgent?.name ?? null} />
      <article className="panel markdown"><Markdown>{prompt.body || "_No body._"}</Markdown></article>
      {canEdit && ["pending", "failed", "cancelled"].includes(prompt.status) && (
        <EditPrompt id={prompt.id} title={prompt.title} body={prompt.body} priority={prompt.priority} dependencies={prompt.dependencies} />
      )}
      {canEdit && (prompt.status === "failed" || prompt.status === "cancelled") && <RetryPrompt id={prompt.id} />}
      {prompt.failureLog && (
        <details className="panel"><summary>Failure log</summary><pre className="log">{prompt.failureLog}</pre></details>
      )}
      <h2>Runs</h2>
      {prompt.runs.length === 0 ? <p className="muted">Not run yet.</p> : (
        <ul className="runs">
          {prompt.runs.map((r, i) => (
            <li key={r.id}>
              {/* Runs are numbered in order; a lost run or a conflict spends no attempt, so attempt numbers repeat. */}
              <Link href={`/runs/${r.id}`}>run {prompt.runs.length - i}</Link> <span className="muted small">attempt {r.attempt}</span> <span className={`badge ${runBadge(r.status, r.mergeStatus).tone}`}>{runBadge(r.status, r.mergeStatus).label}</span>
              <span className="muted small">{r.queuedAt.toISOString()}{r.mergeStatus ? ` · merge ${r.mergeStatus}` : ""}{r.error ? ` · ${r.error}` : ""}</span>
            </li>
          ))}
        </ul>
      )}
      <h2>Pull request</h2>
      {prompt.pullRequests.length === 0 ? <p className="muted">None: local projects merge into their base branch.</p> : (
        <ul>{prompt.pullRequests.map((pr) => <li key={pr.id}><a href={pr.url}>#{pr.number}</a> {pr.state}</li>)}</ul>
      )}
      <h2>Conversation</h2>
      <ThreadView threadId={thread.id} canWrite={canEdit} />
    </div>
  );
}
