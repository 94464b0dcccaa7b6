import { z } from "zod";
import { DomainError } from "@/lib/errors";

// The only reader of process.env. Parsed once, lazily, so that importing
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
  // Proxies (addresses or CIDR ranges, comma separated) whose X-Forwarded-* headers are believed.
  TRUSTED_PROXIES: z.string().default(""),
  // Where local repositories a project names may live, separated by ":" (unset: <DATA_DIR>/repos).
  REPO_ROOTS: z.string().optional().transform((v, ctx) => {
    const roots = v?.split(":").map((r) => r.trim()).filter(Boolean);
    if (roots?.some((r) => !r.startsWith("/"))) ctx.addIssue({ code: "custom", message: "must list absolute paths separated by \":\"" });
    return roots?.length ? roots : undefined;
  }),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WORKER_ID: z.string().optional(),
  TICK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(20),
  SPAWN_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  SPAWN_RATE_MAX: z.coerce.number().int().min(1).default(60),
  SPAWN_RATE_DURATION_MS: z.coerce.number().int().min(1).default(60_000),
  // A dead worker's run is noticed within LEASE_TTL_MS of its last renewal plus one sweep.
  LEASE_TTL_MS: z.coerce.number().int().min(1000).default(12_000),
  // A failed attempt waits RETRY_BACKOFF_MS × 2^(failed attempts − 1), capped at × 16, before the prompt runs again.
  RETRY_BACKOFF_MS: z.coerce.number().int().min(0).default(10_000),
  // Merge conflicts hand the prompt back without spending an attempt; this many conflicts fail it.
  MAX_MERGE_CONFLICTS: z.coerce.number().int().min(1).default(5),
  // The worktree collector: how often it runs, and how long a worktree holding unmerged commits is kept.
  WORKTREE_GC_MS: z.coerce.number().int().min(1000).default(10 * 60_000),
  WORKTREE_RETENTION_DAYS: z.coerce.number().min(0).default(14),
  // Settled webhook deliveries are deleted this many days after they arrived (GitHub redelivers
  // deliveries of the last 3 days: an id kept that long is never processed twice).
  WEBHOOK_RETENTION_DAYS: z.coerce.number().min(3).max(36_500).default(30),
  // The most ready worktrees per project that ran lately (at the base tip, so a new run's start
  // checks out nothing; a project keeps as many as its parallel limit); 0 turns the pool off. A pool
  // unused this long is removed by the worktree collector.
  WORKTREE_POOL_SIZE: z.coerce.number().int().min(0).max(8).default(4),
  WORKTREE_POOL_IDLE_MS: z.coerce.number().int().min(1000).default(30 * 60_000),
  LEASE_RENEW_MS: z.coerce.number().int().min(100).default(3_000),
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(2_000),
  // A prompt whose runs were lost this many times (it kills its worker?) fails for good.
  LOST_RUNS_MAX: z.coerce.number().int().min(1).max(100).default(3),
  SCHEDULE_CHECK_MS: z.coerce.number().int().min(1000).default(60_000),
  // How often each worker relays wake-ups left in the outbox while Redis was away.
  OUTBOX_RELAY_MS: z.coerce.number().int().min(100).default(1_000),
  TICK_SCHEDULES: z.enum(["on", "off"]).default("on"),
  NUDGES: z.enum(["on", "off"]).default("on"),
  ENCRYPTION_KEY: z.string().regex(/^[0-9a-f]{64}$/i, "must be 64 hex characters (32 bytes)").optional(),
  // GitHub: the REST API (tests point it at a local double), git URLs for pushes ({owner}/{repo}
  // are filled in), the webhook secret used when a connection has none of its own.
  GITHUB_API_URL: z.url("must be an absolute URL").default("https://api.github.com"),
  // Other GitHub API hosts (GitHub Enterprise Server) a connection may name, comma-separated;
  // https://api.github.com and GITHUB_API_URL always may. A bare host name means https.
  GITHUB_API_HOSTS: z.string().default("").transform((v, ctx) => v.split(",").map((h) => h.trim()).filter(Boolean).map((h) => {
    try {
      const u = new URL(/^[a-z]+:\/\//i.test(h) ? h : `https://${h}`);
      if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error(u.protocol);
      return u.origin;
    } catch {
      ctx.addIssue({ code: "custom", message: `has "${h}", which is not a host name or an http(s) URL` });
      return z.NEVER;
    }
  })),
  GITHUB_GIT_URL: z.string().includes("{owner}", { message: "must contain {owner} and {repo}" }).includes("{repo}", { message: "must contain {owner} and {repo}" }).default("https://github.com/{owner}/{repo}.git"),
  GITHUB_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  // Rate-limit waits up to this long happen in place; a longer one hands the job back to its queue.
  GITHUB_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  GITHUB_MAX_INLINE_WAIT_S: z.coerce.number().int().min(0).default(60),
  // Slack's Web API (tests point it at a local double); the slack queue's workers per process.
  SLACK_API_URL: z.url("must be an absolute URL").default("https://slack.com/api/"),
  SLACK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  // The webhook intake also as a plain node:http listener in each worker process (off unless a
  // port is set): the same paths and checks as the web app's routes, without the framework's cost.
  WEBHOOK_LISTENER_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  WEBHOOK_LISTENER_HOST: z.string().min(1).default("0.0.0.0"),
  // Routes that exist only for the benchmarks (the trivial ceiling route); 404 unless on.
  BENCH_ROUTES: z.enum(["on", "off"]).default("off"),
  SEED_DEMO: z.enum(["on", "off"]).default("on"),
  DEMO_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  // The agent sandbox: bubblewrap's binary, the user agents run as when we are root, and
  // loopback ports agents may reach through the egress proxy (a local registry or model double).
  SANDBOX_BWRAP: z.string().min(1).default("bwrap"),
  SANDBOX_AGENT_USER: z.string().regex(/^[a-z_][a-z0-9_-]{0,31}$/, "must be a system user name").default("ringmaster-agent"),
  SANDBOX_LOOPBACK_PORTS: z.string().regex(/^(\d{1,5}(,\d{1,5})*)?$/, "must be comma-separated port numbers").default("")
    .transform((v) => (v ? v.split(",").map(Number) : [])),
  // An unsandboxed agent runs with the server's own rights, so only the operator may allow a
  // team admin's per-project opt-in; a team admin alone never can.
  SANDBOX_UNSANDBOXED_OPT_IN: z.enum(["on", "off"]).default("off"),
  // Sandbox networks each worker keeps made ahead where it runs as root (lib/sandbox/network-holder.ts).
  SANDBOX_SPARE_NETWORKS: z.coerce.number().int().min(0).max(16).default(4),
  // Extra folders agents may read (agent CLIs installed outside /usr and /opt), colon-separated.
  SANDBOX_READ_ONLY_PATHS: z.string().default("")
    .transform((v) => v.split(":").filter(Boolean))
    .refine((paths) => paths.every((p) => p.startsWith("/")), "must be absolute paths separated by colons"),
  // Test only, refused in production: a file holding the instant (epoch ms) the lead agents' loop
  // takes as now, read on each pass, so a test moves a real worker process's clock (the 240 s
  // idle safety net) without waiting. Whoever could set it could make threads wake at will.
  TEST_CLOCK_FILE: z.string().startsWith("/", "must be an absolute path").optional(),
  PATH: z.string().default("/usr/local/bin:/usr/bin:/bin"),
  HOME: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

/** The operator's configuration is wrong: said plainly, since it names settings, never their values. */
export class EnvError extends DomainError {
  constructor(readonly issues: string[]) {
    super(500, "misconfigured", `Invalid configuration: ${issues.join("; ")}`);
  }
}

let cached: Env | undefined;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`));
  }
  if (result.data.NODE_ENV === "production" && result.data.TEST_CLOCK_FILE) {
    throw new EnvError(["TEST_CLOCK_FILE is for tests only and is refused when NODE_ENV is production"]);
  }
  return result.data;
}

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

// What an agent may never receive, whatever a team admin writes: every variable this schema
// reads (Ringmaster's own configuration and secrets) but PATH and HOME, and the credential
// families of the services Ringmaster acts on and of its own database and run context.
const AGENT_SAFE = new Set(["PATH", "HOME"]);
const SERVER_ONLY = new Set(Object.keys(schema.shape).filter((name) => !AGENT_SAFE.has(name)));
const SERVER_ONLY_PREFIXES = /^(AUTH_|NEXTAUTH_|GITHUB_|GH_|SLACK_|DATABASE_|REDIS_|PG|ENCRYPTION_|RINGMASTER_|PRISMA_)/;

/** True for a variable that is Ringmaster's own (a secret or its configuration), never an agent's. */
export function isServerOnlyVariable(name: string): boolean {
  return SERVER_ONLY.has(name) || SERVER_ONLY_PREFIXES.test(name);
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
