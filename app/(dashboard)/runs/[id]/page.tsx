import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { roleAtLeast } from "@/lib/teams/membership";
import { requireViewer } from "../../current";
import { RunDetail } from "./_components/run-detail";

export const dynamic = "force-dynamic";

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await requireViewer();
  const run = await getDb().run.findFirst({ where: { id, project: { teamId: viewer.team.id } }, select: { id: true } });
  if (!run) notFound();
  return <RunDetail runId={id} canOperate={roleAtLeast(viewer.role, "operator")} />;
}
