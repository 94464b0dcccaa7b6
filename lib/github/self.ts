import { isOwn } from "@/lib/github/review";

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type OwnIdentity = { botLogin: string | null; appId: string | null };

const sameApp = (app: { id?: unknown } | null | undefined, appId: string | null) =>
  Boolean(appId) && app?.id !== undefined && app?.id !== null && String(app.id) === appId;

/**
 * Whether a delivery reports something Ringmaster's own GitHub identity wrote: its login as the
 * comment's or review's author, or its app as the one that wrote the comment, review or check.
 * Such an event is never a trigger, so nothing Ringmaster writes starts more work (invariant 12).
 * Not the sender: CI's check events name whoever pushed, which is often Ringmaster itself.
 */
export function writtenByUs(p: Payload, own: OwnIdentity): boolean {
  const logins = [p.comment?.user?.login, p.review?.user?.login];
  if (own.botLogin && logins.some((login) => typeof login === "string" && isOwn(login, own.botLogin))) return true;
  const apps = [
    p.comment?.performed_via_github_app, p.review?.performed_via_github_app, p.issue?.performed_via_github_app,
    p.check_run?.app, p.check_suite?.app,
  ];
  return apps.some((app) => sameApp(app, own.appId));
}
