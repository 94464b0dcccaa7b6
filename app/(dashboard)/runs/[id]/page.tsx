import { requireRunProject } from "@/lib/auth/objects";
import { roleAtLeast } from "@/lib/auth/access";
import { orNotFound, requirePageActor } from "@/app/(dashboard)/current";
import { RunDetail } from "./_components/run-detail";

export const dynamic = "force-dynamic";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { viewer, actor } = await requirePageActor();
  await orNotFound(requireRunProject(actor, id));
  return <RunDetail runId={id} canOperate={roleAtLeast(viewer.role, "operator")} canAdmin={roleAtLeast(viewer.role, "admin")} />;
}
