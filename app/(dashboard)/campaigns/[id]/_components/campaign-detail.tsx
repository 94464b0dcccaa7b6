"use client";

import Link from "next/link";
import { api } from "@/app/(dashboard)/_ui/api";
import { useCampaign } from "@/app/(dashboard)/_data/use-campaign";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { CampaignView } from "@/app/(dashboard)/_data/wire";
import { CampaignPlan } from "./campaign-plan";

const PHASE_WORDS: Record<string, string> = { planning: "Planning", executing: "Executing", completed: "Completed", failed: "Failed", cancelled: "Cancelled" };
// What the campaign's history shows: the plans, re-plans and their reasons, milestones and drift verdicts.
const HISTORY = new Set(["plan", "replan", "drift", "aligned", "milestone", "architect_failed", "reflector_failed", "plan_ignored", "verdict_ignored", "completed", "failed", "cancelled", "paused", "resumed"]);

export function CampaignDetail({ campaignId, projectId, canOperate }: { campaignId: string; projectId: string; canOperate: boolean }) {
  const { data, error } = useCampaign(campaignId);
  if (error) return <p className="error" role="alert">{error.message}</p>;
  if (!data) return <p className="muted">Loading…</p>;
  const { campaign, events } = data;
  return (
    <div className="campaign">
      <p><Link href={`/projects/${projectId}/campaigns`}>← Campaigns</Link></p>
      <div className="row spread">
        <h1>{campaign.title}</h1>
        <span className={`badge ${campaign.phase}`} data-testid="campaign-phase">{PHASE_WORDS[campaign.phase]}{campaign.paused ? " (paused)" : ""}</span>
      </div>
      {canOperate && <Controls view={data} />}
      <section className="panel">
        <h2>Goal</h2>
        <p className="pre-wrap">{campaign.goal}</p>
      </section>
      <section className="panel">
        <h2>Progress</h2>
        <p data-testid="campaign-metrics">{campaign.tasksCompleted} of {campaign.tasksTotal} tasks done · {campaign.tasksFailed} failed · plan {campaign.planVersion}</p>
        <p>Milestones reached: {campaign.milestones.length ? campaign.milestones.map((m) => `${m} %`).join(", ") : "none yet"}</p>
        {campaign.failureLog && <><h3>Given to the next plan</h3><pre className="log">{campaign.failureLog}</pre></>}
      </section>
      <Replans view={data} />
      <CampaignPlan view={data} />
      <section className="panel">
        <h2>History</h2>
        <ol className="campaign-history">
          {events.filter((e) => HISTORY.has(e.kind)).map((e) => (
            <li key={e.id}><span className={`badge ${e.kind}`}>{e.kind.replaceAll("_", " ")}</span> {e.message} <time className="muted">{new Date(e.createdAt).toLocaleString()}</time></li>
          ))}
        </ol>
      </section>
    </div>
  );
}

const REPLANS = new Set(["replan", "drift"]);

/** Every re-plan with its reason, the count toward the cap, and when a backed-off architect may start. */
function Replans({ view }: { view: CampaignView }) {
  const { campaign, events, maxReplans } = view;
  const replans = events.filter((e) => REPLANS.has(e.kind));
  const waitsUntil = campaign.phase === "planning" && campaign.planAfter && new Date(campaign.planAfter).getTime() > Date.now() ? new Date(campaign.planAfter) : null;
  return (
    <section className="panel">
      <h2>Re-plans</h2>
      <p data-testid="campaign-replans">
        {replans.length} re-plan{replans.length === 1 ? "" : "s"} in all · {campaign.replans} of {maxReplans} automatic re-plans in a row without progress (one more fails the campaign; a task completed by a plan that did not drift starts the count again)
      </p>
      {waitsUntil && <p data-testid="campaign-plan-after">Backing off: the next architect run starts no earlier than <time dateTime={waitsUntil.toISOString()}>{waitsUntil.toLocaleString()}</time>.</p>}
      {replans.length > 0 && (
        <ol className="campaign-replans">
          {replans.map((e) => <li key={e.id}><span className={`badge ${e.kind}`}>{e.kind === "drift" ? "drift" : "re-plan"}</span> {e.message} <time className="muted">{new Date(e.createdAt).toLocaleString()}</time></li>)}
        </ol>
      )}
    </section>
  );
}

function Controls({ view }: { view: CampaignView }) {
  const { campaign } = view;
  const control = useApiMutation((action: string) => api(`/api/campaigns/${campaign.id}`, { method: "POST", body: { action } }), { invalidate: [queryKeys.campaign(campaign.id)] });
  const open = campaign.phase === "planning" || campaign.phase === "executing";
  if (!open) return null;
  return (
    <div className="row">
      {campaign.paused
        ? <button type="button" disabled={control.pending} onClick={() => control.mutate("start")}>Start</button>
        : <button type="button" className="secondary" disabled={control.pending} onClick={() => control.mutate("pause")}>Pause</button>}
      <button type="button" className="secondary" disabled={control.pending || campaign.phase !== "executing"} onClick={() => control.mutate("replan")}>Re-plan now</button>
      <button type="button" className="secondary danger" disabled={control.pending} onClick={() => control.mutate("cancel")}>Cancel campaign</button>
      {control.error && <p className="error" role="alert">{control.error.message}</p>}
    </div>
  );
}
