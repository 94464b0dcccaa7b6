// The GitHub settings of the in-process GitHub tests, set before anything reads the configuration
// (lib/env.ts reads it once): every file that uses them sets the same values.
export const ENV_WEBHOOK_SECRET = "environment-webhook-secret-12345";

export function useGithubTestEnv(): void {
  Object.assign(process.env, { GITHUB_WEBHOOK_SECRET: ENV_WEBHOOK_SECRET, ENCRYPTION_KEY: "5e".repeat(32) });
}
