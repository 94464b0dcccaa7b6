import Link from "next/link";
import { signOut } from "@/auth";
import { requirePageActor } from "./current";
import { countPendingApprovals } from "@/lib/approvals/list";
import { Nav } from "./nav";
import { TeamSwitcher } from "./team-switcher";
import { ShortcutHelp } from "./shortcut-help";
import { QueryProvider } from "./_live/query-provider";
import { LiveProvider } from "./_live/live-provider";
import { LiveIndicator } from "./_ui/live-indicator";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { viewer, actor } = await requirePageActor();
  const pendingApprovals = await countPendingApprovals(actor);
  return (
    <QueryProvider>
      <LiveProvider>
        <header className="top">
          <Link href="/" className="brand">Ringmaster</Link>
          <TeamSwitcher teams={viewer.teams} currentId={viewer.team.id} />
          <Nav pendingApprovals={pendingApprovals} />
          <span className="spacer" />
          <LiveIndicator />
          <span className="muted who">{viewer.email}</span>
          <form action={async () => { "use server"; await signOut({ redirectTo: "/login" }); }}>
            <button className="secondary" type="submit">Sign out</button>
          </form>
        </header>
        <main>{children}</main>
        <ShortcutHelp />
      </LiveProvider>
    </QueryProvider>
  );
}
