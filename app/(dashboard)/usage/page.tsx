import { requireViewer } from "@/app/(dashboard)/current";
import { UsageView } from "./_components/usage-view";

export const dynamic = "force-dynamic";

export default async function UsagePage() {
  await requireViewer();
  return <UsageView today={new Date().toISOString().slice(0, 10)} />;
}
