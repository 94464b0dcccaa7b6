import Link from "next/link";
import { auth, githubEnabled } from "@/auth";
import { getInvitation, type InvitationState } from "@/lib/teams/invitations";
import { roleSummary } from "@/lib/auth/access";
import { acceptWithGithub } from "./actions";
import { JoinButton, NewAccountForm } from "./accept-form";

export const dynamic = "force-dynamic";

const closed: Record<InvitationState, string> = {
  open: "",
  expired: "This invitation has expired.",
  revoked: "This invitation was revoked.",
  accepted: "This invitation has already been used.",
};

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const inv = await getInvitation(token);
  const session = await auth();
  if (!inv || inv.state !== "open") {
    return (
      <main>
        <div className="panel auth-card">
          <h1>Invitation not valid</h1>
          <p>{inv ? closed[inv.state] : "This link is not a valid invitation."} Ask an owner or admin for a new link.</p>
          <p><Link href="/login">Sign in</Link></p>
        </div>
      </main>
    );
  }
  return (
    <main>
      <div className="panel auth-card">
        <h1>Join {inv.team.name}</h1>
        <p>You are invited as <strong>{inv.role}</strong> <span className="muted">({roleSummary[inv.role]})</span>.</p>
        {session?.user ? (
          <>
            <p className="muted">Signed in as {session.user.email}.</p>
            <JoinButton token={token} teamName={inv.team.name} />
          </>
        ) : (
          <>
            <NewAccountForm token={token} email={inv.email} />
            <p className="muted small">
              Already have an account? <Link href={`/login?next=${encodeURIComponent(`/invite/${token}`)}`}>Sign in</Link>, then you can join with it.
            </p>
            {githubEnabled() && (
              <form action={acceptWithGithub.bind(null, token)} className="alt-sign-in">
                <button type="submit" className="secondary">Continue with GitHub</button>
              </form>
            )}
          </>
        )}
      </div>
    </main>
  );
}
