import Link from "next/link";
import type { CampaignView } from "@/app/(dashboard)/_data/wire";

/** The current plan as an ordered list (dependencies first), each task with its prompt's state. */
export function CampaignPlan({ view }: { view: CampaignView }) {
  const { campaign, tasks } = view;
  const current = tasks.filter((t) => t.campaignPlan === campaign.planVersion);
  const byNumber = new Map(current.map((t) => [t.number, t.taskId]));
  const earlier = tasks.length - current.length;
  return (
    <section className="panel">
      <h2>Plan</h2>
      {current.length === 0 ? <p className="muted">{campaign.phase === "planning" ? "The architect is planning." : "No plan."}</p> : (
        <ol className="campaign-plan">
          {current.map((t) => (
            <li key={t.id} data-testid={`task-${t.taskId}`}>
              <span className={`badge ${t.status}`}>{t.status.replace("_", " ")}</span>{" "}
              <Link href={`/prompts/${t.id}`}><strong>{t.taskId}</strong></Link> {t.title}
              {t.dependencies.length > 0 && <small className="muted"> · after {t.dependencies.map((n) => byNumber.get(n) ?? `#${n}`).join(", ")}</small>}
              {t.attempts > 0 && <small className="muted"> · attempt {t.attempts} of {t.maxAttempts}</small>}
            </li>
          ))}
        </ol>
      )}
      {earlier > 0 && <p className="muted">{earlier} task{earlier === 1 ? "" : "s"} from earlier plans.</p>}
    </section>
  );
}
