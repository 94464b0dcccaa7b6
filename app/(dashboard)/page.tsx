import Link from "next/link";
import { listProjectsWithStatus } from "@/lib/projects/queries";
import { roleAtLeast } from "@/lib/auth/access";
import { requireViewer } from "@/app/(dashboard)/current";
import type { ProjectListJson } from "@/app/(dashboard)/_data/wire";
import { ProjectsList } from "@/app/(dashboard)/projects-list";
import { currentBudgetAlerts } from "@/lib/budgets/alerts";

export const dynamic = "force-dynamic";

export default async function ProjectsPage() {
  const viewer = await requireViewer();
  const [projects, alerts] = await Promise.all([listProjectsWithStatus(viewer.team.id), currentBudgetAlerts(viewer.team.id)]);
  // Serialized as the API would send it, so the live query can replace it seamlessly.
  const initial = JSON.parse(JSON.stringify(projects)) as ProjectListJson[];
  return (
    <>
      <div className="row spread">
        <h1>Projects</h1>
        {roleAtLeast(viewer.role, "admin") && <Link className="button" href="/projects/new">New project</Link>}
      </div>
      {alerts.length > 0 && (
        <div className="panel banner warn" role="status" data-testid="budget-banner">
          {alerts.map((a) => (
            <p key={`${a.scope}/${a.period}`}>
              {a.scopeName} {a.threshold >= 100 ? "has spent" : "has used"} {a.threshold} % of its {a.period === "day" ? "daily" : "monthly"} budget
              {a.threshold >= 100 ? ": its loop is paused and new runs are refused." : "."} <Link href="/usage">See usage</Link>
            </p>
          ))}
        </div>
      )}
      <ProjectsList initial={initial} />
    </>
  );
}
