import tseslint from "typescript-eslint";

// The core reads top-down: a module of lib/ imports its own layer or the ones below, never one
// above (docs/ARCHITECTURE.md). Each entry is a folder of lib/ or a single file at its root.
export const LAYERS = [
  ["loop", "webhooks"],
  ["projects", "teams", "profiles", "lead", "runners", "slack"],
  ["runs"],
  ["campaigns"],
  ["github"],
  ["prompts", "approvals", "threads", "routing"],
  ["events", "audit", "activity", "auth", "health", "sandbox", "credentials", "budgets"],
  ["queues", "db", "redis", "run-statuses"],
  ["git", "agents", "demo", "spend"],
  ["crypto"],
  ["env", "log", "log-capture", "errors", "slug", "worker-id", "validation", "http", "data-dir", "spawner"],
];

// Core `no-restricted-imports` needs no plugin and runs in every `eslint .`; one config object
// per layer, because a later object replaces (not merges) the rule's options for its files.
const outside = [
  { regex: "^@/(app|workers)(/|$)", message: "lib/ must not import app/ or workers/" },
  { regex: "^\\.\\./", message: "import through @/lib/... so the layer rule can see the edge" },
];

function layerRules() {
  return LAYERS.map((layer, i) => {
    const above = LAYERS.slice(0, i).flat();
    const patterns = above.length
      ? [...outside, { regex: `^@/lib/(${above.join("|")})(/|$)`, message: `a lower layer (${layer.join(", ")}) must not import a higher one (${above.join(", ")})` }]
      : outside;
    return {
      files: layer.flatMap((name) => [`lib/${name}/**/*.{ts,tsx}`, `lib/${name}.ts`, `lib/${name}.test.ts`]),
      rules: { "no-restricted-imports": ["error", { patterns }] },
    };
  });
}

export default tseslint.config(
  { ignores: ["node_modules/", ".next*/", ".data/", "lib/db/generated/", "test-results/", "playwright-report/", "next-env.d.ts", ".stryker-tmp/", "reports/"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: outside }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "read configuration through lib/env.ts" }],
    },
  },
  ...layerRules(),
  {
    // Pages and routes read through lib/<entity>/queries and check access through lib/auth.
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [
        { regex: "^@/lib/db(/|$)", message: "app/ reads through lib/<entity> query modules; types come from the lib module that owns them" },
        { regex: "^\\.\\./", message: "import through @/ rather than climbing ../" },
      ] }],
    },
  },
  {
    // The runner runs on other machines with a runner token only: no database, no Redis, no
    // server configuration. It may use the agent adapters, git, the sandbox's command line, the
    // MCP gateway (an HTTP relay with no server state), the run guard with its meter and loop
    // detector (pure code over the agent's events) and the run log's mask (pure code over lines).
    files: ["runner/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [
        { regex: "^@/(app|workers)(/|$)", message: "the runner talks to the server over HTTP only" },
        { regex: "^@/lib/(?!(agents|git|sandbox/bwrap|sandbox/mcp-gateway|runs/watchdog|runs/guard|runs/log-mask|spend/(ceilings|meter|prices|loop-detector|capabilities))(/|$))", message: "the runner may import only lib/agents, lib/git, lib/sandbox/bwrap and mcp-gateway, lib/runs/watchdog, lib/runs/guard, lib/runs/log-mask and lib/spend's ceilings, meter, prices and loop detector (no database, Redis or server configuration)" },
      ] }],
    },
  },
  {
    files: ["lib/env.ts"],
    rules: { "no-restricted-properties": "off" },
  },
);
