import { getDb, type TeamRole } from "@/lib/db";
import { issueSecret } from "@/lib/auth/tokens";

/** An API token of a team, as an admin would create it; returns the plaintext once. */
export async function apiToken(teamId: string, role: TeamRole = "operator", projectId?: string): Promise<string> {
  const { token, prefix, tokenHash } = issueSecret("api");
  await getDb().apiToken.create({ data: { teamId, projectId, role, name: `test ${role}`, tokenHash, prefix } });
  return token;
}

export function request(method: string, path: string, token?: string, body?: unknown): Request {
  return new Request(`http://localhost${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

export const params = (id: string) => ({ params: Promise.resolve({ id }) });
