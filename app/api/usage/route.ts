import { requireTeamScope } from "@/lib/auth/actor";
import { topRuns, usageCsv, usagePeriodInput, usageRows } from "@/lib/budgets/usage";
import { handle, requireActor } from "@/app/api/_lib/handler";

/** The team's spend from the ledger: JSON for the Usage page, or CSV with ?format=csv. */
export const GET = handle(async (req) => {
  const actor = await requireActor(req);
  requireTeamScope(actor);
  const url = new URL(req.url);
  const period = usagePeriodInput.parse({ from: url.searchParams.get("from") ?? undefined, to: url.searchParams.get("to") ?? undefined });
  const rows = await usageRows(actor.teamId, period);
  if (url.searchParams.get("format") === "csv") {
    return new Response(usageCsv(rows), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="ringmaster-usage-${period.from}-${period.to}.csv"` },
    });
  }
  return Response.json({ period, rows, topRuns: await topRuns(actor.teamId, period) });
});
