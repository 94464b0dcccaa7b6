import { getDb } from "@/lib/db";

/** The project's activity log, newest first; `before` pages back by id. */
export async function listActivity(projectId: string, opts: { type?: string; before?: bigint; take?: number } = {}) {
  const rows = await getDb().activityEvent.findMany({
    where: { projectId, ...(opts.type ? { type: opts.type } : {}), ...(opts.before ? { id: { lt: opts.before } } : {}) },
    orderBy: { id: "desc" },
    take: Math.min(opts.take ?? 100, 500),
  });
  return rows.map((r) => ({ id: r.id.toString(), type: r.type, message: r.message, data: r.data, createdAt: r.createdAt }));
}
