import { roleAtLeast } from "@/lib/auth/access";
import { listThreads, threadProjects } from "@/lib/threads/queries";
import { requirePageActor } from "@/app/(dashboard)/current";
import { ThreadList } from "./_components/thread-list";
import { NewThread } from "./_components/new-thread";

export const dynamic = "force-dynamic";

export default async function ThreadsPage() {
  const { viewer, actor } = await requirePageActor();
  const threads = await listThreads(actor);
  const canWrite = roleAtLeast(viewer.role, "operator");
  const projects = canWrite ? await threadProjects(actor) : [];
  return (
    <div className="stack">
      <h1>Threads</h1>
      <p className="muted">Conversations with each project’s lead agent: ask why a run failed, or have it split a feature into prompts.</p>
      {canWrite && projects.length > 0 && <NewThread projects={projects} />}
      <ThreadList initial={JSON.parse(JSON.stringify(threads))} />
    </div>
  );
}
