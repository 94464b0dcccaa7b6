import Link from "next/link";
import { roleAtLeast } from "@/lib/auth/access";
import { listPromptsAwaitingRunner, listRunners } from "@/lib/runners/list";
import { requirePageActor } from "@/app/(dashboard)/current";
import { RunnerTable } from "@/app/(dashboard)/runners/_components/runner-table";

export const dynamic = "force-dynamic";

export default async function RunnersPage() {
  const { viewer, actor } = await requirePageActor();
  const [runners, waiting] = await Promise.all([listRunners(actor), listPromptsAwaitingRunner(actor)]);
  return (
    <div className="stack">
      <h1>Runners</h1>
      <p className="muted">
        Runners run agents on other machines: they pull work from this server over HTTP with a runner token.
        {roleAtLeast(viewer.role, "admin") ? <> Create a runner token under <Link href="/team/tokens">Team → API tokens</Link>.</> : null}
        {" "}A project hands its runs to runners when “Run executors on remote runners” is on in its settings.
      </p>
      <section className="panel stack" aria-labelledby="runners-h">
        <h2 id="runners-h">Registered runners</h2>
        <RunnerTable runners={runners} waiting={waiting} canOffer={roleAtLeast(viewer.role, "operator")} canRevoke={roleAtLeast(viewer.role, "admin")} />
      </section>
    </div>
  );
}
