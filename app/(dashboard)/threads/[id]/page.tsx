import Link from "next/link";
import { roleAtLeast } from "@/lib/auth/access";
import { requireThread } from "@/lib/threads/queries";
import { orNotFound, requirePageActor } from "@/app/(dashboard)/current";
import { ThreadView } from "@/app/(dashboard)/threads/_components/thread-view";

export const dynamic = "force-dynamic";

export default async function ThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer, actor } = await requirePageActor();
  const { thread, project } = await orNotFound(requireThread(actor, id));
  return (
    <div className="stack">
      <p className="muted"><Link href="/threads">Threads</Link> · <Link href={`/projects/${project.id}`}>{project.name}</Link></p>
      <h1>{thread.title ?? "Conversation"}</h1>
      <ThreadView threadId={thread.id} canWrite={roleAtLeast(viewer.role, "operator")} />
    </div>
  );
}
