import Link from "next/link";
import { listMembers } from "@/lib/teams/members";
import { listInvitations } from "@/lib/teams/invitations";
import { roleAtLeast, roles, roleSummary } from "@/lib/auth/access";
import { requirePageActor } from "@/app/(dashboard)/current";
import { MembersTable } from "./_components/members-table";
import { InviteForm } from "./_components/invite-form";
import { InvitationList } from "./_components/invitation-list";
import { AccountPanel } from "./_components/account-panel";
import { NewTeamForm } from "./_components/new-team-form";
import { CredentialsPanel } from "./_components/credentials-panel";
import { listCredentials } from "@/lib/credentials/credentials";
import { getTeamPrices } from "@/lib/budgets/prices";
import { PricesPanel } from "./_components/prices-panel";
import { getTeamBudget } from "@/lib/budgets/team";
import { TeamBudgetPanel } from "./_components/team-budget-panel";
import { SlackPanel } from "./_components/slack-panel";
import { getSlackConnection } from "@/lib/slack/connection";
import { listSlackChannels } from "@/lib/slack/channels";
import { listProjectChoices } from "@/lib/projects/queries";

export const dynamic = "force-dynamic";

export default async function TeamPage() {
  const { viewer, actor } = await requirePageActor();
  const isAdmin = roleAtLeast(viewer.role, "admin");
  const [members, invitations, credentials, prices, budget, slack, projects] = await Promise.all([
    listMembers(actor),
    isAdmin ? listInvitations(actor) : Promise.resolve([]),
    isAdmin ? listCredentials(actor) : Promise.resolve([]),
    isAdmin ? getTeamPrices(actor) : Promise.resolve([]),
    getTeamBudget(actor.teamId),
    isAdmin ? getSlackConnection(actor) : Promise.resolve(null),
    isAdmin ? listProjectChoices(actor.teamId) : Promise.resolve([]),
  ]);
  const channels = slack ? await listSlackChannels(actor) : [];
  return (
    <div className="stack">
      <div className="page-head">
        <h1>Team · {viewer.team.name}</h1>
        {isAdmin && <Link href="/team/tokens" className="button secondary">API tokens</Link>}
      </div>
      <section className="panel stack" aria-labelledby="members-h">
        <h2 id="members-h">Members</h2>
        <MembersTable members={members} myRole={viewer.role} myUserId={viewer.userId} />
        <ul className="muted small role-legend">{roles.map((r) => <li key={r}><strong>{r}</strong>: {roleSummary[r]}</li>)}</ul>
      </section>
      {isAdmin && (
        <section className="panel stack" aria-labelledby="invite-h">
          <h2 id="invite-h">Invite someone</h2>
          <InviteForm myRole={viewer.role} />
          <h3>Invitations</h3>
          <InvitationList invitations={invitations} />
        </section>
      )}
      <section className="panel stack" aria-labelledby="budget-h">
        <h2 id="budget-h">Team budget</h2>
        <p className="muted small">
          Spend of every project of the team together, in USD, from the ledger, beside each project&apos;s own budget. Empty: no
          team budget; 0: runs are refused. Alerts at 80, 90 and 100 %; at 100 % every project&apos;s loop pauses and new runs
          are refused until the period ends or an owner raises or overrides it.
        </p>
        <TeamBudgetPanel budget={budget} canEdit={viewer.role === "owner"} />
      </section>
      {isAdmin && (
        <section className="panel stack" aria-labelledby="credentials-h">
          <h2 id="credentials-h">Agent credentials</h2>
          <p className="muted small">
            Keys your agents need, such as ANTHROPIC_API_KEY or OPENAI_API_KEY. A run receives the ones its agent
            profile&apos;s environment allow-list names, in its environment only. Ringmaster&apos;s own secrets can never be passed.
          </p>
          <CredentialsPanel credentials={credentials} />
        </section>
      )}
      {isAdmin && (
        <section className="panel stack" aria-labelledby="prices-h">
          <h2 id="prices-h">Model prices</h2>
          <p className="muted small">
            Ringmaster prices each model call&apos;s tokens as they arrive, for cost ceilings, budgets and the Usage page (a
            CLI&apos;s own total, where it reports one, still counts when higher). It ships current list prices; set your own
            here for a discount or a model it does not know. Runs started afterwards use them.
          </p>
          <PricesPanel prices={prices} />
        </section>
      )}
      {isAdmin && (
        <section className="panel stack" aria-labelledby="slack-h">
          <h2 id="slack-h">Slack</h2>
          <p className="muted small">
            People ask for work in Slack: a message in a mapped channel becomes a prompt for the agent it names, or a turn in
            the lead&apos;s thread, and the bot answers in the message&apos;s thread as the work goes.
          </p>
          <SlackPanel connection={slack} channels={channels} projects={projects} />
        </section>
      )}
      {!isAdmin && (
        <p className="muted">Owners and admins invite people and manage roles. You are {viewer.role === "admin" ? "an" : "a"} {viewer.role}.</p>
      )}
      <section className="panel stack" aria-labelledby="new-team-h">
        <h2 id="new-team-h">Start another team</h2>
        <p className="muted small">A team of your own, with its own projects, agents and members. Switch between your teams at the top of the page.</p>
        <NewTeamForm />
      </section>
      <AccountPanel email={viewer.email} />
    </div>
  );
}
