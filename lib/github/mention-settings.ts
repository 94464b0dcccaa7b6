import { getDb } from "@/lib/db";
import { requireProject, type Actor } from "@/lib/auth/actor";
import { recordAudit } from "@/lib/audit/record";
import { NotConnectedError } from "@/lib/github/repo";
import { connectionView } from "@/lib/github/connection";
import { mentionSettingsInput, type MentionSettingsInput } from "@/lib/github/mention-text";

/**
 * The login people assign issues to and mention (`@login`) to ask for work on this project's
 * repository; null turns that intake off. Usually the connection's own account, or the GitHub
 * App's bot user.
 */
export async function setMentionLogin(actor: Actor, projectId: string, raw: MentionSettingsInput) {
  const { mentionLogin } = mentionSettingsInput.parse(raw);
  const project = await requireProject(actor, projectId, "admin");
  if (!project.githubConnectionId) throw new NotConnectedError("the project has no GitHub connection: connect it first");
  const saved = await getDb().$transaction(async (tx) => {
    const before = await tx.githubConnection.findFirstOrThrow({ where: { id: project.githubConnectionId!, teamId: project.teamId } });
    const after = await tx.githubConnection.update({ where: { id: before.id }, data: { mentionLogin } });
    await recordAudit({ teamId: project.teamId, by: actor, action: "github.mentions_changed", target: { type: "project", id: project.id },
      before: { mentionLogin: before.mentionLogin }, after: { mentionLogin } }, tx);
    return after;
  });
  return connectionView(saved);
}
