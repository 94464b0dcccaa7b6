import { z } from "zod";

// The only reader of process.env (DESIGN.md). Parsed once, lazily, so that importing
// a module never fails a build; the first real use reports every bad variable by name.
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string({ error: "is required, e.g. postgresql://postgres@127.0.0.1:5432/ringmaster" })
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL"),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// URL").default("redis://127.0.0.1:6379"),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.:-]+$/, "may only contain letters, digits and _ . : -").default("rm"),
  APP_URL: z.url("must be an absolute URL").default("http://localhost:3000"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  AUTH_GITHUB_ID: z.string().optional(),
  AUTH_GITHUB_SECRET: z.string().optional(),
  // GitHub Enterprise Server's root URL for "Sign in with GitHub" (unset: github.com). The
  // provider appends /login/oauth/... and /api/v3/..., so a trailing slash would double up.
  AUTH_GITHUB_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. https://github.example.com" })
    .transform((u) => u.replace(/\/+$/, "")).optional(),
  // How long a sign-in lasts (default 7 days); "sign out everywhere" ends sessions sooner.
  AUTH_SESSION_MAX_AGE_S: z.coerce.number().int().min(60, "must be at least 60 seconds").max(31_536_000, "must be at most a year").default(604_800),
  DATA_DIR: z.string().default(".data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WORKER_ID: z.string().optional(),
  TICK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(20),
  SPAWN_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  SPAWN_RATE_MAX: z.coerce.number().int().min(1).default(60),
  SPAWN_RATE_DURATION_MS: z.coerce.number().int().min(1).default(60_000),
  LEASE_TTL_MS: z.coerce.number().int().min(1000).default(15_000),
  LEASE_RENEW_MS: z.coerce.number().int().min(100).default(5_000),
  TICK_SCHEDULES: z.enum(["on", "off"]).default("on"),
  NUDGES: z.enum(["on", "off"]).default("on"),
  ENCRYPTION_KEY: z.string().regex(/^[0-9a-f]{64}$/i, "must be 64 hex characters (32 bytes)").optional(),
  // GitHub: the REST API (tests point it at a local double), git URLs for pushes ({owner}/{repo}
  // are filled in), the webhook secret used when a connection has none of its own.
  GITHUB_API_URL: z.url("must be an absolute URL").default("https://api.github.com"),
  GITHUB_GIT_URL: z.string().includes("{owner}", { message: "must contain {owner} and {repo}" }).includes("{repo}", { message: "must contain {owner} and {repo}" }).default("https://github.com/{owner}/{repo}.git"),
  GITHUB_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  // Rate-limit waits up to this long happen in place; a longer one hands the job back to its queue.
  GITHUB_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  GITHUB_MAX_INLINE_WAIT_S: z.coerce.number().int().min(0).default(60),
  SEED_DEMO: z.enum(["on", "off"]).default("on"),
  DEMO_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  PATH: z.string().default("/usr/local/bin:/usr/bin:/bin"),
  HOME: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration: ${issues.join("; ")}`);
    this.name = "EnvError";
  }
}

let cached: Env | undefined;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`));
  }
  return result.data;
}

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Variables an agent process may inherit from ours, before its profile's allow-list. */
export function inheritedProcessEnv(names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = process.env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
