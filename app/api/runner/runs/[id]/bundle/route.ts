import { acceptRunBundle, runBaseBundle } from "@/lib/runners/bundle";
import { handle } from "@/app/api/_lib/handler";
import { requireRunnerAgent } from "@/app/api/_lib/runner";

type Ctx = { params: Promise<{ id: string }> };

/** A git bundle of the run's base (and its branch, on a retry), for a project whose repository is local to the server. */
export const GET = handle(async (req: Request, { params }: Ctx) => {
  const { caller, agent } = await requireRunnerAgent(req);
  const bundle = await runBaseBundle(caller, agent, (await params).id);
  return new Response(new Uint8Array(bundle), { headers: { "content-type": "application/x-git-bundle", "content-length": String(bundle.length) } });
});

/** The run's branch handed back as a git bundle (the body), fetched into the project's repository. */
export const POST = handle(async (req: Request, { params }: Ctx) => {
  const { caller, agent } = await requireRunnerAgent(req);
  return Response.json(await acceptRunBundle(caller, agent, (await params).id, req));
});
