// The words a person sees for each input the API takes: the form's own label, so an error
// beside a field, in a toast or in a script's output names it the way the page does.
export const FIELD_LABELS: Record<string, string> = {
  body: "Prompt",
  name: "Name",
  email: "Email",
  password: "Password",
  teamName: "Team name",
  role: "Role",
  expiresInHours: "Expires after (hours)",
  expiresInDays: "Expires after (days)",
  projectId: "Project",
  botToken: "Bot token",
  signingSecret: "Signing secret",
  channelId: "Slack channel",
  title: "Title",
  priority: "Priority",
  dependencies: "Depends on",
  domain: "Domain",
  number: "Prompt number",
  files: "Prompt files",
  repoKind: "Repository kind",
  repoPath: "Repository path",
  baseBranch: "Base branch",
  branch: "Branch",
  owner: "Owner",
  repo: "Repository",
  githubOwner: "GitHub owner",
  githubRepo: "GitHub repository",
  action: "Action",
  tickIntervalMs: "Tick interval",
  maxParallel: "Parallel agents",
  parallelEnabled: "Parallel executors",
  spawnCooldownMs: "Spawn cooldown",
  plannerEnabled: "Planner",
  prCheckFrequency: "PR review check frequency",
  reviewDetectionString: "Review detection string",
  rerunComment: "Rerun comment",
  maxFixCycles: "Review-fix cycles per PR",
  autoMerge: "Automatic merge",
  mergeMethod: "Merge method",
  maxAttempts: "Retry limit",
  maxRunDurationMs: "Max run duration",
  verifyCommand: "Verify command",
  modelRouting: "Model routing",
  approvalPolicy: "Approval policy",
  approveMerges: "Approval before merging",
  approveFixPastCap: "Approval past the fix cap",
  executorProfileId: "Executor profile",
  plannerProfileId: "Planner profile",
  networkMode: "Network mode",
  egressPresets: "Network presets",
  egressRules: "Allowed hosts",
  unsandboxed: "Unsandboxed",
  maxTokens: "Max tokens per run",
  maxCostUsd: "Max cost per run",
  maxToolCalls: "Max tool calls per run",
  maxTurns: "Max turns per run",
  prices: "Prices",
  loopRepeatLimit: "Loop detector (identical calls)",
  loopFailureLimit: "Loop detector (same failing call)",
  adapter: "Adapter",
  commandTemplate: "Command template",
  model: "Model",
  fallbackModel: "Fallback model",
  completionSignal: "Completion signal",
  envAllowList: "Environment allow-list",
  extraArgs: "Extra arguments",
  permissionMode: "Permission mode",
  value: "Value",
  decision: "Decision",
  comment: "Comment",
  text: "Message",
  kind: "Kind",
  status: "Status",
  token: "Token",
  apiBaseUrl: "API base URL",
  webhookSecret: "Webhook secret",
  appId: "App id",
  installationId: "Installation id",
  privateKey: "Private key",
  before: "Page cursor",
  limit: "Page size",
  type: "Type",
  teamId: "Team",
  useRunners: "Run executors on remote runners",
  dailyBudgetUsd: "Daily budget",
  monthlyBudgetUsd: "Monthly budget",
  budgetStopsRuns: "At 100 %, running runs",
  initRepository: "Create a new repository here",
};

// Lists a person edits one entry per line; an index there is a line number.
const LINES = new Set(["egressRules", "envAllowList", "extraArgs", "prices"]);

/** "maxParallel" → "Parallel agents"; an unknown name is spelled out ("fooBar" → "Foo bar"). */
export function fieldLabel(path: ReadonlyArray<PropertyKey>): string {
  const [head, ...rest] = path.map(String);
  if (head === undefined) return "The request";
  const base = FIELD_LABELS[head] ?? spellOut(head);
  const where = rest.map((part) => (/^\d+$/.test(part) ? (LINES.has(head) ? `line ${Number(part) + 1}` : `item ${Number(part) + 1}`) : `"${part}"`));
  return where.length ? `${base}, ${where.join(", ")}` : base;
}

function spellOut(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
