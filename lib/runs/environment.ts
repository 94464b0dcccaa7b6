import { getEnv, inheritedProcessEnv, isServerOnlyVariable } from "@/lib/env";

// What every agent process may inherit; anything else (our DATABASE_URL, secrets,
// tokens) is dropped unless the agent profile's allow-list names it.
const BASE_ALLOW_LIST = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ", "USER", "SHELL", "TMPDIR"];

export function agentEnvironment(input: {
  allowList: readonly string[];
  token: string;
  runId: string;
  projectId: string;
  promptId: string | null;
  /** The team's stored credentials for this run (credentialsForRun); they win over the server's. */
  credentials?: Record<string, string>;
}): Record<string, string> {
  return {
    // The profile form refuses Ringmaster's own variables; a row written any other way is filtered here too.
    ...inheritedProcessEnv([...BASE_ALLOW_LIST, ...input.allowList.filter((name) => !isServerOnlyVariable(name))]),
    ...input.credentials,
    RINGMASTER_URL: getEnv().APP_URL,
    RINGMASTER_TOKEN: input.token,
    RINGMASTER_RUN_ID: input.runId,
    RINGMASTER_PROJECT_ID: input.projectId,
    ...(input.promptId ? { RINGMASTER_PROMPT_ID: input.promptId } : {}),
  };
}
