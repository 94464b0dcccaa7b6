import { getDb } from "@/lib/db";
import { isServerOnlyVariable } from "@/lib/env";
import { isLoaderVariable } from "@/lib/sandbox/bwrap";
import { decryptSecret } from "@/lib/crypto/secrets";

/**
 * The team's credentials a run's profile allow-lists, decrypted for the agent's environment
 * only: never for job data, logs or the database beyond their ciphertext.
 */
export async function credentialsForRun(teamId: string, allowList: readonly string[]): Promise<Record<string, string>> {
  // A row written any other way than the form (which refuses both) is filtered here too.
  const names = allowList.filter((name) => !isServerOnlyVariable(name) && !isLoaderVariable(name));
  if (names.length === 0) return {};
  const rows = await getDb().agentCredential.findMany({ where: { teamId, name: { in: names } } });
  return Object.fromEntries(rows.map((r) => [r.name, decryptSecret(r.encryptedValue)]));
}
