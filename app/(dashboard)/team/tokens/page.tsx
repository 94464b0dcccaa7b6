import Link from "next/link";
import { listProjectChoices } from "@/lib/projects/queries";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { roleAtLeast } from "@/lib/auth/access";
import { requirePageActor } from "@/app/(dashboard)/current";
import { TokenForm } from "@/app/(dashboard)/team/_components/token-form";
import { TokenList } from "@/app/(dashboard)/team/_components/token-list";

export const dynamic = "force-dynamic";

export default async function TokensPage() {
  const { viewer, actor } = await requirePageActor();
  if (!roleAtLeast(viewer.role, "admin")) {
    return <div className="panel"><h1>API tokens</h1><p>Only owners and admins manage API tokens.</p></div>;
  }
  const [tokens, projects] = await Promise.all([
    listApiTokens(actor),
    listProjectChoices(viewer.team.id),
  ]);
  return (
    <div className="stack">
      <p className="muted"><Link href="/team">← Team</Link></p>
      <h1>API tokens</h1>
      <section className="panel stack" aria-labelledby="new-token-h">
        <h2 id="new-token-h">New token</h2>
        <TokenForm myRole={viewer.role} projects={projects} />
      </section>
      <section className="panel stack" aria-labelledby="tokens-h">
        <h2 id="tokens-h">Tokens</h2>
        <TokenList tokens={tokens} />
      </section>
    </div>
  );
}
