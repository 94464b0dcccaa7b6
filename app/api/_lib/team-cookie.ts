import { getEnv } from "@/lib/env";
import { TEAM_COOKIE } from "@/lib/teams/current";

/** Answers with the team and remembers it as the person's current team in this browser. */
export function withTeamCookie(body: unknown, teamId: string, status = 200): Response {
  const secure = new URL(getEnv().APP_URL).protocol === "https:";
  const cookie = `${TEAM_COOKIE}=${encodeURIComponent(teamId)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000${secure ? "; Secure" : ""}`;
  return Response.json(body, { status, headers: { "set-cookie": cookie } });
}
