// What `npm run mutation [group]` mutates, which tests judge each group, and the mutants
// no behaviour can tell apart from the original (listed with why, not counted as failures).

export interface Equivalent {
  file: string;
  /** The source text the mutant replaces, exactly as written (robust to lines moving). */
  original: string;
  /** Stryker's replacement text for it. */
  replacement: string;
  reason: string;
}

export interface MutationGroup {
  modules: string[];
  tests: string[];
}

export const GROUPS: Record<string, MutationGroup> = {
  // The run lifecycle, one group per module so each runs in minutes: a mutant of a value built
  // when its module loads runs every test of its group, so each group holds only the tests
  // that reach its modules.
  "runs-claim": {
    modules: ["lib/runs/claim.ts", "lib/runs/claim-statement.ts", "lib/runs/claim-run.ts", "lib/db/json-row.ts"],
    tests: ["lib/runs/claim.test.ts", "lib/db/json-row.test.ts", "test/claim-limits.test.ts", "test/claim.test.ts", "test/claim-run.test.ts"],
  },
  // The writes of every run's start, one statement each (its token, the prompt's branch, the start mark).
  "runs-start-writes": {
    modules: ["lib/runs/start-record.ts", "lib/auth/tokens.ts"],
    tests: ["test/run-start-writes.test.ts", "test/tokens.test.ts", "test/api-tokens.test.ts"],
  },
  // When a worker refills what its run starts took (its sandbox networks, the project's ready worktrees).
  "runs-starts-in-flight": {
    modules: ["lib/runs/starts-in-flight.ts"],
    tests: ["lib/runs/starts-in-flight.test.ts"],
  },
  "runs-complete": {
    modules: ["lib/runs/complete.ts"],
    tests: ["test/run-complete.test.ts", "test/retry-backoff.test.ts", "test/lead.test.ts"],
  },
  // How a prompt leaves in_progress when its run did not land (used by complete, merge and the sweeper).
  "runs-finish": {
    modules: ["lib/runs/finish-prompt.ts"],
    tests: ["test/finish-prompt.test.ts"],
  },
  "runs-reconcile": {
    modules: ["lib/runs/reconcile.ts"],
    tests: ["test/run-reconcile.test.ts", "test/sweep.test.ts"],
  },
  "runs-merge": {
    modules: ["lib/runs/merge.ts"],
    tests: ["test/run-merge.test.ts", "test/run-merge-refusals.test.ts", "test/run-merge-no-sandbox.test.ts", "test/run-merge-github.test.ts", "test/sandbox-worktree-links.test.ts", "test/worktree-pool.test.ts"],
  },
  "runs-cancel": {
    modules: ["lib/runs/lease.ts", "lib/runs/cancel.ts"],
    tests: ["test/run-cancel-lease.test.ts"],
  },
  // What a run's agent and verify command decide: failed, timed out, cancelled or done, and
  // what of the agent's output is kept on the run while it runs.
  "runs-agent-step": {
    modules: ["lib/runs/agent-step.ts"],
    tests: ["test/agent-step.test.ts", "test/runs.test.ts"],
  },
  // One run from its claim to its outcome: the start's side-by-side steps and what they release,
  // the shutdown hand-back, the failure log, what is committed and under which title. Its tests
  // start real sandboxed agents, so this group takes an hour or more.
  "runs-execute": {
    modules: ["lib/runs/execute.ts"],
    tests: [
      "test/run-execute.test.ts", "test/run-start-steps.test.ts", "test/runs.test.ts", "test/run-ceilings.test.ts", "test/run-diff.test.ts",
      "test/planner.test.ts", "test/merge-conflict.test.ts", "test/agent-secrets.test.ts", "test/home-config-unsandboxed.test.ts",
      "test/campaign-worker.test.ts", "test/campaign-egress.test.ts", "test/sandbox-fail-closed.test.ts",
      // A GitHub project's clone, an architect's invalid plan, the home-config log line (test/sandbox-home-config.test.ts,
      // with the real CLIs, fails under Stryker with "cline: not found": its cache's node_modules are not copied).
      "test/github-ci.test.ts", "test/campaigns.test.ts", "test/home-config-log.test.ts",
    ],
  },
  // A runner's long-poll for work.
  "runners-poll": {
    modules: ["lib/runners/poll.ts"],
    tests: ["test/runners-poll.test.ts"],
  },
  // The loop, in two groups so each runs in minutes: the tick (its tests need Postgres and Redis)
  // and the pure decision code its unit tests pin.
  "loop-tick": {
    modules: ["lib/loop/tick.ts"],
    tests: ["test/tick.test.ts", "test/tick-apply.test.ts", "test/tick-dry-campaign.test.ts", "test/campaigns-api.test.ts", "test/prompt-file-status.test.ts"],
  },
  "loop-pure": {
    modules: ["lib/loop/decide.ts", "lib/loop/backoff.ts", "lib/loop/pick-next-prompt.ts"],
    tests: [
      "lib/loop/decide.test.ts", "lib/loop/decide-planner.test.ts", "lib/loop/decide-merges.test.ts", "lib/loop/backoff.test.ts",
      "lib/loop/pick-next-prompt.test.ts",
    ],
  },
  // GitHub intake, one module a group (together they ran well over half an hour).
  "github-review": {
    modules: ["lib/github/review.ts"],
    tests: ["lib/github/review.test.ts", "test/github-mention-reviews.test.ts"],
  },
  "github-intake": {
    modules: ["lib/github/intake.ts"],
    tests: ["test/github-intake.test.ts", "test/github-intake-bare.test.ts"],
  },
  // The webhook intake's store: deliveries and their work orders in one statement a batch, kept per batch size.
  "github-delivery-store": {
    modules: ["lib/github/delivery-store.ts"],
    tests: ["lib/github/delivery-store.test.ts", "test/github-delivery-store.test.ts", "test/prepared-statements.test.ts", "test/github-webhooks.test.ts", "test/github-delivery-batch.test.ts"],
  },
  "github-deliveries": {
    modules: ["lib/github/deliveries.ts", "lib/github/delivery-dispatch.ts"],
    tests: [
      "test/github-deliveries.test.ts", "test/github-delivery-batch.test.ts", "test/github-deliveries-act.test.ts", "test/github-mentions.test.ts",
      "test/github-mention-reviews.test.ts",
    ],
  },
  // Settled deliveries deleted after the retention, a batch at a time.
  "webhook-retention": {
    modules: ["lib/webhooks/retention.ts"],
    tests: ["test/webhook-retention.test.ts"],
  },
  // The fallback without webhooks: stale deliveries queued again, open pull requests polled.
  "github-poll": {
    modules: ["lib/github/poll.ts"],
    tests: ["test/github-poll.test.ts", "test/github-ci.test.ts", "test/github-deliveries.test.ts"],
  },
  crypto: {
    modules: ["lib/crypto/secrets.ts"],
    tests: ["lib/crypto/secrets.test.ts"],
  },
  auth: {
    modules: ["lib/auth/api-tokens.ts", "lib/auth/rate-limit.ts"],
    tests: ["lib/auth/api-tokens.test.ts", "test/api-tokens.test.ts", "test/sign-in-limits.test.ts"],
  },
  // A new prompt: one statement with its approval, entries and wake-ups (every intake's path).
  "prompts-create": {
    modules: ["lib/prompts/create.ts", "lib/prompts/create-statement.ts"],
    tests: ["test/prompt-create.test.ts", "test/prompt-dependencies.test.ts", "test/approvals.test.ts", "test/tick-backoff.test.ts"],
  },
  prompts: {
    modules: ["lib/prompts/parse.ts", "lib/prompts/sync.ts"],
    tests: ["lib/prompts/parse.test.ts", "lib/prompts/parse-frontmatter.test.ts", "test/prompt-sync.test.ts"],
  },
  // The transactional outbox: the fast path after a commit and the relay every worker runs.
  outbox: {
    modules: ["lib/queues/outbox.ts"],
    tests: ["test/outbox-relay.test.ts", "test/outbox-claim.test.ts"],
  },
  // The webhook intake's batched publish: orders queued together, deleted behind the answers.
  "outbox-batch": {
    modules: ["lib/queues/outbox-batch.ts"],
    tests: ["test/outbox-relay.test.ts", "test/github-delivery-batch.test.ts", "test/webhook-listener.test.ts"],
  },
  // Seed 002's step in the tick: answers handled once, the architect and the drift checks held or
  // started, the breaker, milestones and completion.
  "loop-campaign": {
    modules: ["lib/loop/campaign.ts", "lib/loop/campaign-replan.ts"],
    tests: [
      "lib/loop/campaign-replan.test.ts", "test/campaign-step.test.ts", "test/campaign-answers.test.ts", "test/campaigns.test.ts", "test/campaign-backoff.test.ts", "test/campaign-architect.test.ts",
      "test/tick-dry-campaign.test.ts", "test/campaign-notices.test.ts", "test/campaigns-api.test.ts",
    ],
  },
  // The spend ledger, the per-run meter and the ceilings it checks.
  spend: {
    modules: ["lib/budgets/ledger.ts", "lib/spend/meter.ts", "lib/spend/ceilings.ts"],
    tests: ["lib/spend/meter.test.ts", "lib/spend/ceilings.test.ts", "test/spend-ledger.test.ts"],
  },
  // How a run's step waits out a Postgres outage (a completion report among them) and a prompt's retry backoff.
  retry: {
    modules: ["lib/runs/backoff.ts"],
    tests: ["lib/runs/backoff.test.ts"],
  },
  // The egress policy a sandboxed run's proxy applies.
  sandbox: {
    modules: ["lib/sandbox/policy.ts"],
    tests: ["lib/sandbox/policy.test.ts"],
  },
};

export const EQUIVALENTS: Equivalent[] = [
  {
    file: "lib/runs/starts-in-flight.ts", original: "waiting.length === 0", replacement: "false",
    reason: "with nothing waiting, settling goes on to run an empty list, or sets a timer that later runs the same empty list: no refill runs either way, and a start that begins clears the timer",
  },
  {
    file: "lib/runs/execute.ts", original: '"lease lost"', replacement: '""',
    reason: "the reason reaches only the outcome of a run whose lease is lost, which reportOutcome then may not record (the run is no longer this worker's); an abort for any reason but shutdown is treated alike",
  },
  {
    file: "lib/runs/execute.ts", original: '"thread"', replacement: '""',
    reason: "the step's name only labels whenPostgresAnswers's log line while Postgres is away during a lead run's start",
  },
  {
    file: "lib/github/poll.ts", original: 'ci?.verdict.state === "success"', replacement: "true",
    reason: "mergeIfAllowed reads the pull request's checks itself and merges only on success: the recheck's test only saves it a request",
  },
  {
    file: "lib/github/poll.ts", original: "open.length === 0", replacement: "false",
    reason: "with no open pull request the loop asks GitHub nothing and answers polled: 0 (open.length); the early return saves the client's set-up",
  },
  {
    file: "lib/github/poll.ts", original: "!project || open.length === 0", replacement: "!project && open.length === 0",
    reason: "with no open pull request the loop asks GitHub nothing and answers polled: 0; a deleted project has no pull requests left",
  },
  {
    file: "lib/runs/agent-step.ts", original: 'e.type === "usage" || e.type === "result"', replacement: "true",
    reason: "a save on an event that carries no usage writes the totals the last usage line left, throttled to once a second as before",
  },
  {
    file: "lib/runs/agent-step.ts", original: 'e.type === "init" || e.type === "usage"', replacement: "true",
    reason: "only init and usage events carry a model (AgentEvent): the e.model check that follows lets no other through",
  },
  {
    file: "lib/runs/agent-step.ts", original: "true", replacement: "false",
    reason: "modelSeen and sessionSeen only save a write: each is written where the run has none (model: null, sessionId: null), so a later one changes nothing (sawSignal's true, the third, is killed)",
  },
  {
    file: "lib/runs/agent-step.ts", original: 'e.type === "init" && e.sessionId', replacement: "true",
    reason: "isSessionId refuses a missing id, and only init events carry one (AgentEvent)",
  },
  {
    file: "lib/runs/agent-step.ts", original: 'e.type === "init" && e.sessionId', replacement: 'e.type === "init" || e.sessionId',
    reason: "isSessionId refuses a missing id, and only init events carry one (AgentEvent)",
  },
  {
    file: "lib/runs/agent-step.ts", original: 'e.type === "init"', replacement: "true",
    reason: "only init events carry a session id (line 80), and on line 75 true || usage is the model check's own equivalent above",
  },
  {
    file: "lib/runs/agent-step.ts", original: '{ runId, step: "ledger" }', replacement: "{}",
    reason: "the run id and the step's name only label the log line of a wait for Postgres; an answering Postgres has no wait",
  },
  {
    file: "lib/runs/agent-step.ts", original: '"ledger"', replacement: '""',
    reason: "the step's name only labels the log line of a wait for Postgres; an answering Postgres has no wait",
  },
  {
    file: "lib/runs/agent-step.ts", original: "Date.now() - savedAt < 1000", replacement: "Date.now() - savedAt <= 1000",
    reason: "a write exactly 1000 ms after the last or not: the next usage line or the result writes the same figures",
  },
  {
    file: "lib/runs/complete.ts", original: "outcome.countAttempt ?? true", replacement: "outcome.countAttempt && true",
    reason: "an absent countAttempt stays undefined and takes failPromptAttempt's default, true",
  },
  {
    file: "lib/runs/complete.ts", original: "outcome.retry ?? true", replacement: "outcome.retry && true",
    reason: "an absent retry stays undefined and takes failPromptAttempt's default, true",
  },
  {
    file: "lib/runs/finish-prompt.ts", original: "prompt.status !== \"in_progress\"", replacement: "false",
    reason: "changePromptStatus changes only a prompt still in its from status (in_progress): for any other the early return only saves a write that matches no row",
  },
  {
    file: "lib/github/review.ts", original: "() => false", replacement: "() => undefined",
    reason: "the default alsoCounts answers a filter: undefined is as falsy as false",
  },
  {
    file: "lib/github/review.ts", original: "Date.parse(i.createdAt) > Date.parse(max)", replacement: "Date.parse(i.createdAt) >= Date.parse(max)",
    reason: "GitHub writes every timestamp in one format: two items at the same instant carry the same string, either is the latest",
  },
  {
    file: "lib/github/intake.ts", original: "{\n    return null;\n  }", replacement: "{}",
    reason: "a body that is no JSON parses to undefined instead of null: both are refused as no JSON object",
  },
  {
    file: "lib/github/intake.ts", original: "!handled || !stored.outboxId", replacement: "!handled && !stored.outboxId",
    reason: "storeDelivery gives an outbox id exactly when the delivery is handled, so both halves are always equal",
  },
  {
    file: "lib/queues/outbox-batch.ts", original: "sent.length", replacement: "true",
    reason: "with nothing sent, the DELETE is of no rows: the same outbox, one statement more",
  },
  {
    file: "lib/runners/poll.ts", original: "signal?.aborted", replacement: "signal.aborted",
    reason: "the poll's one caller, its route, always passes the request's signal",
  },
  {
    file: "lib/runners/poll.ts", original: "left <= 0", replacement: "left < 0",
    reason: "at exactly 0 ms left the poll waits 0 ms and looks once more before it answers null: the same answer, one look later",
  },
  {
    file: "lib/runs/merge.ts", original: "settings?.verifyCommand", replacement: "settings.verifyCommand",
    reason: "every project has its settings row: it is created with the project",
  },
  {
    file: "lib/runs/merge.ts", original: "project.settings", replacement: "true",
    reason: "every project has its settings row: it is created with the project (the guard is for the relation's type)",
  },
  {
    file: "lib/runs/merge.ts", original: "{ create: false }", replacement: "{}",
    reason: "refillPool reads opts.create as a truth value: a missing one is false too",
  },
  {
    file: "lib/runs/merge.ts", original: "() => null", replacement: "() => undefined",
    reason: "the worktree's git link checked, the integration goes on when the value is falsy: null and undefined both are",
  },
  {
    file: "lib/sandbox/policy.ts", original: "parts.length === 0", replacement: "false",
    reason: "String.split always returns at least one part; an empty line is caught by parts[0] === \"\"",
  },
  {
    file: "lib/spend/meter.ts", original: "event.id", replacement: "true",
    reason: "remembering an empty tool id changes nothing: an empty id is counted by !event.id before the set is asked",
  },
  {
    file: "lib/queues/outbox.ts", original: "rows.length === 0", replacement: "false",
    reason: "an empty list claims, publishes and deletes nothing: the early return only saves a connection",
  },
  {
    file: "lib/queues/outbox.ts", original: "sent.length", replacement: "true",
    reason: "deleting an empty list of ids deletes nothing: the check only saves a statement",
  },
  {
    file: "lib/queues/outbox.ts", original: "now - (r.writtenAfter ?? -Infinity) < FRESH_MS", replacement: "now - (r.writtenAfter ?? -Infinity) <= FRESH_MS",
    reason: "a row handed exactly half a second after it was written, to the fraction of a millisecond the clock reads, is either side of a boundary with a half-second margin on it",
  },
  {
    file: "lib/queues/outbox.ts", original: "due.length === 0", replacement: "false",
    reason: "with nothing due the claim finds no row and the relay returns 0 all the same: the probe only saves a transaction",
  },
  {
    file: "lib/queues/outbox.ts", original: "\"now\"", replacement: "\"\"",
    reason: "syncTickScheduler starts one period later only for \"after_period\": any other value, an empty one too, starts the first tick at once",
  },
  {
    file: "lib/queues/outbox.ts", original: "{ failFast: false }", replacement: "{}",
    reason: "an absent failFast is falsy, as false is",
  },
  {
    file: "lib/prompts/create-statement.ts", original: "actor.kind === \"token\"", replacement: "true",
    reason: "a person's or Ringmaster's own id then asks whether a run's token has that id: ids are random and none is shared between users, intakes and tokens, so the author is no agent either way",
  },
  {
    file: "lib/prompts/parse.ts", original: "fromName?.[1]", replacement: "fromName[1]",
    reason: "a number that is no safe integer can only come from the file name (the schema refuses it in the frontmatter), so fromName is set",
  },
  {
    file: "lib/prompts/sync.ts", original: "names.length === 0", replacement: "false",
    reason: "with no files the loop over them changes nothing and returns 0: the early return only saves two queries",
  },
  {
    file: "lib/prompts/sync.ts", original: "(await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(\".md\")).sort()",
    replacement: "(await readdir(dir).catch(() => [] as string[])).filter(n => n.endsWith(\".md\"))",
    reason: "Node's readdir already lists names sorted (libuv's scandir sorts them); the sort says the order is meant",
  },
  {
    file: "lib/prompts/sync.ts", original: "fileChanged && !closes", replacement: "true",
    reason: "also writing an unchanged file status, or the one the closing status change writes anyway, changes no row",
  },
  {
    file: "lib/prompts/sync.ts", original: "fileChanged && !closes", replacement: "fileChanged || !closes",
    reason: "also writing an unchanged file status, or the one the closing status change writes anyway, changes no row",
  },
  {
    file: "lib/auth/api-tokens.ts", original: "{ select: { name: true } }", replacement: "{}",
    reason: "including the whole project instead of its name: the token's view reads only the name",
  },
  {
    file: "lib/auth/rate-limit.ts", original: "headers.get(\"x-forwarded-for\")?.split(\",\")[0]?.trim", replacement: "headers.get(\"x-forwarded-for\")?.split(\",\")[0].trim",
    reason: "String.split always returns at least one part, so [0] is never undefined",
  },
  {
    file: "lib/loop/tick.ts", original: "true", replacement: "false",
    reason: "a finished tick's last UPDATE already released its lock: the second release matches no row",
  },
  {
    file: "lib/loop/tick.ts", original: "!finished", replacement: "true",
    reason: "a finished tick's last UPDATE already released its lock: the second release matches no row",
  },
  {
    file: "lib/loop/tick.ts", original: "decision.kind === \"idle\"", replacement: "true",
    reason: "decide() answers idle to every loop that is not running, so a stopping loop's decision is always idle",
  },
  {
    file: "lib/loop/tick.ts", original: "snap.loopState.mode !== \"running\"", replacement: "false",
    reason: "a loop not running takes no campaign step, so nothing reloads or lands, and decide() answers it idle: the decision's clause breaks the loop as this one does",
  },
  {
    file: "lib/loop/tick.ts", original: "decision.kind !== \"all_done\"", replacement: "true",
    reason: "a campaign step that left the decision all done with no task landed found nothing to do: a second step at once reads the same rows and does nothing new (only a task landing between the snapshot's reload and that step, a race no test can time, tells them apart)",
  },
  {
    file: "lib/loop/tick.ts", original: "\"all_done\"", replacement: "\"\"",
    reason: "(the loop's all-done clause) a campaign step that left the decision all done with no task landed found nothing to do: a second step at once reads the same rows and does nothing new (only a task landing between the snapshot's reload and that step, a race no test can time, tells them apart)",
  },
  {
    file: "lib/loop/tick.ts", original: "snap.runs.map((r) => r.promptId).filter(Boolean)", replacement: "snap.runs.map(r => r.promptId)",
    reason: "a promptless run's null id is no prompt's id: the set answers the same for every prompt",
  },
  {
    file: "lib/loop/tick.ts", original: "snap.merging.map((m) => m.promptId).filter(Boolean)", replacement: "snap.merging.map(m => m.promptId)",
    reason: "a promptless run's null id is no prompt's id: the set answers the same for every prompt",
  },
  {
    file: "lib/loop/tick.ts", original: "err.budgetSpent", replacement: "false",
    reason: "the tick pauses a loop whose budget is spent before it decides; a claim meets a spent budget only in a race with another tick, which pauses it",
  },
  {
    file: "lib/github/delivery-dispatch.ts", original: "result?.verdict", replacement: "result.verdict",
    reason: "onChecks asks only for open PRs with this head sha, and checkCiStatus answers null only for a PR not open or without a head sha",
  },
  {
    file: "lib/github/delivery-dispatch.ts", original: "p.review?.state", replacement: "p.review.state",
    reason: "a review is processed only with its review: feedback needs its author, a mention request its id",
  },
  {
    file: "lib/github/delivery-dispatch.ts", original: "p.pull_request?.number", replacement: "p.pull_request.number",
    reason: "(the approval's second look) a review is processed only on a pull request: feedback needs its number, a mention request too",
  },
  {
    file: "lib/github/delivery-dispatch.ts", original: "p.issue?.number", replacement: "p.issue.number",
    reason: "read only when p.issue?.pull_request is set, so the issue is there",
  },
  {
    file: "lib/github/delivery-dispatch.ts", original: "\"status\"", replacement: "\"\"",
    reason: "a status payload holds no comment, review, issue or check whose author or app writtenByUs could read: it is never ours either way",
  },
  {
    file: "lib/github/deliveries.ts", original: "rows.length === 0", replacement: "false",
    reason: "settling no delivery then runs an UPDATE over empty arrays, which matches no row",
  },
  {
    file: "lib/github/deliveries.ts", original: "{\n  try {\n    return row.payload === null ? null : (storedPayload(row.payload) as Payload);\n  } catch {\n    return null;\n  }\n}", replacement: "{}",
    reason: "no payload read ahead (undefined): payloadOf only parses ahead what fullPayload parses (and throws on, into the same hand-back) when the delivery's turn comes",
  },
  {
    file: "lib/github/deliveries.ts", original: "{\n    return row.payload === null ? null : (storedPayload(row.payload) as Payload);\n  }", replacement: "{}",
    reason: "no payload read ahead (undefined): payloadOf only parses ahead what fullPayload parses (and throws on, into the same hand-back) when the delivery's turn comes",
  },
  {
    file: "lib/github/deliveries.ts", original: "row.payload === null", replacement: "true",
    reason: "no payload read ahead: payloadOf only parses ahead what fullPayload parses (and throws on, into the same hand-back) when the delivery's turn comes",
  },
  {
    file: "lib/github/deliveries.ts", original: "row.payload === null", replacement: "false",
    reason: "storedPayload(null) is null, what the other branch gives",
  },
  {
    file: "lib/github/deliveries.ts", original: "row.payload === null", replacement: "row.payload !== null",
    reason: "a batched payload is then not read ahead and a left-out one is storedPayload(null), null: payloadOf only parses ahead what fullPayload parses (and throws on, into the same hand-back) when the delivery's turn comes",
  },
  {
    file: "lib/github/deliveries.ts", original: "{\n    return null;\n  }", replacement: "{}",
    reason: "an unparsable payload read ahead as undefined instead of null: both send it to fullPayload, which throws the same parse error",
  },
  {
    file: "lib/github/deliveries.ts", original: "row.payload !== null", replacement: "false",
    reason: "fullPayload reads the claimed row again: the same payload, which no one changes while it is claimed",
  },
  {
    file: "lib/github/deliveries.ts", original: "[]", replacement: "[\"Stryker was here\"]",
    reason: "(the settled list) a string settles as a row of null id, status and error: it matches no delivery",
  },
  {
    file: "lib/github/deliveries.ts", original: "Math.min(PARALLEL_SUBJECTS, queue.length)", replacement: "Math.max(PARALLEL_SUBJECTS, queue.length)",
    reason: "workers beyond the subjects find the queue empty; past 8 subjects only how many run at once changes, which no outcome shows",
  },
  {
    file: "lib/runs/claim.ts", original: "{ in: [\"executor\", ...PLANNING_KINDS] }", replacement: "{}",
    reason: "grouping the live runs of every kind: count() reads only the executor and planning kinds' groups",
  },
  {
    file: "lib/runs/claim-statement.ts", original: "[\"pending\"]", replacement: "[]",
    reason: "statusColumns only refuses an illegal move, and pending → in_progress is legal: without the from list it returns the same columns (the statement itself claims only a pending prompt)",
  },
  {
    file: "lib/runs/claim-statement.ts", original: "moved.completedAt?.toISOString() ?? null", replacement: "moved.completedAt?.toISOString() && null",
    reason: "an in-progress prompt has no completedAt: both give undefined or null, which the driver sends as NULL",
  },
  {
    file: "lib/db/json-row.ts", original: "!list", replacement: "true",
    reason: "the converters are a cache of what the client's field list gives: built again each time, they are the same",
  },
  {
    file: "lib/runs/reconcile.ts", original: "run.status !== \"queued\" && run.status !== \"succeeded\"", replacement: "true",
    reason: "markRunLost changes only a starting or running run whose lease expired: a queued or finished row handed to it matches no row and counts nothing",
  },
  {
    file: "lib/runs/reconcile.ts", original: "run.status !== \"queued\" && run.status !== \"succeeded\"", replacement: "run.status !== \"queued\" || run.status !== \"succeeded\"",
    reason: "markRunLost changes only a starting or running run whose lease expired: a queued or finished row handed to it matches no row and counts nothing",
  },
  {
    file: "lib/runs/reconcile.ts", original: "run.status !== \"queued\"", replacement: "true",
    reason: "markRunLost changes only a starting or running run whose lease expired: a queued or finished row handed to it matches no row and counts nothing",
  },
  {
    file: "lib/runs/reconcile.ts", original: "run.status !== \"succeeded\"", replacement: "true",
    reason: "markRunLost changes only a starting or running run whose lease expired: a queued or finished row handed to it matches no row and counts nothing",
  },
  {
    file: "lib/runs/reconcile.ts", original: "\"queued\"", replacement: "\"\"",
    reason: "markRunLost changes only a starting or running run whose lease expired: a queued or finished row handed to it matches no row and counts nothing",
  },
  {
    file: "lib/runs/reconcile.ts", original: "\"succeeded\"", replacement: "\"\"",
    reason: "markRunLost changes only a starting or running run whose lease expired: a queued or finished row handed to it matches no row and counts nothing",
  },
  {
    file: "lib/crypto/secrets.ts", original: "\"utf8\"", replacement: "\"\"",
    reason: "Cipher.update reads a string with an empty encoding as UTF-8, its default (the same bytes: checked with a non-ASCII text)",
  },
  {
    file: "lib/crypto/secrets.ts", original: "typeof p === \"string\"", replacement: "false",
    reason: "the one string part is the version: String.prototype.toString ignores the encoding it is given and returns it as is",
  },
  {
    file: "lib/crypto/secrets.ts", original: "\"string\"", replacement: "\"\"",
    reason: "the one string part is the version: String.prototype.toString ignores the encoding it is given and returns it as is",
  },
  {
    file: "lib/loop/campaign.ts", original: "{ where: { runId: { in: ended.map((r) => r.id) } }, select: { runId: true } }", replacement: "{}",
    reason: "every event's run id instead of the ended runs' ones: a superset holding the same ids of these runs, so the same runs count as handled",
  },
  {
    file: "lib/loop/campaign.ts", original: "{ runId: { in: ended.map((r) => r.id) } }", replacement: "{}",
    reason: "every event's run id instead of the ended runs' ones: a superset holding the same ids of these runs, so the same runs count as handled",
  },
  {
    file: "lib/loop/campaign.ts", original: "{ in: ended.map((r) => r.id) }", replacement: "{}",
    reason: "every event's run id instead of the ended runs' ones: a superset holding the same ids of these runs, so the same runs count as handled",
  },
  {
    file: "lib/loop/campaign.ts", original: "c.driftFailures > 0", replacement: "true",
    reason: "the guard only saves an UPDATE that sets driftFailures to the 0 it already is (Campaign.updatedAt, which it touches, is read nowhere)",
  },
  {
    file: "lib/loop/campaign.ts", original: "c.driftFailures > 0", replacement: "c.driftFailures >= 0",
    reason: "the guard only saves an UPDATE that sets driftFailures to the 0 it already is (Campaign.updatedAt, which it touches, is read nowhere)",
  },
  {
    file: "lib/loop/campaign.ts", original: "counts.done !== campaign.tasksCompleted", replacement: "true",
    reason: "the guard only saves an UPDATE that writes the count the row already holds",
  },
  {
    file: "lib/loop/campaign.ts", original: "{ tasksCompleted: counts.done }", replacement: "{}",
    reason: "the step wrote the same count a few lines before (counts is read once): the completion's copy of it writes what the row holds",
  },
  {
    file: "lib/loop/campaign.ts", original: "{ run }", replacement: "{}",
    reason: "callers only tell a queued run from `held` and null; none reads the run itself",
  },
  {
    file: "lib/loop/campaign-replan.ts", original: "{ failed: false }", replacement: "{}",
    reason: "callers read `failed`, which is undefined (falsy) in the empty object as false is",
  },
];
