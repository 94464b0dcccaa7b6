import { z } from "zod";
import { requireRole, requireTeamScope } from "@/lib/auth/actor";
import { checkLocalRepository } from "@/lib/projects/repo-check";
import { branchNameField } from "@/lib/git/ref-name";
import { handle, readJson, requireActor } from "@/app/api/_lib/handler";

const input = z.object({
  repoPath: z.string().trim().startsWith("/", "must be an absolute path to a git repository"),
  baseBranch: branchNameField,
}).strict();

// The set-up form's "Test" button: the same checks as creating the project, changing nothing.
// Admins only, as for creating: it tells what lies at a path on the server.
export const POST = handle(async (req) => {
  const actor = await requireActor(req);
  requireTeamScope(actor);
  requireRole(actor, "admin");
  const body = input.parse(await readJson(req));
  const { repoPath, head } = await checkLocalRepository(actor.teamId, body.repoPath, body.baseBranch);
  return Response.json({ repoPath, head });
});
