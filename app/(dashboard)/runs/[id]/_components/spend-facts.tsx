import type { RunJson } from "@/app/(dashboard)/_data/wire";

const n = (v: number) => Math.round(v).toLocaleString("en-US");

function Meter({ label, used, limit, format, testId }: { label: string; used: number; limit: number | null; format: (v: number) => string; testId: string }) {
  const share = limit ? Math.min(1, used / limit) : 0;
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>
        {format(used)}{limit !== null ? <span className="muted"> of {format(limit)}</span> : <span className="muted"> (no limit)</span>}
        {limit !== null && <meter min={0} max={1} value={share} high={0.8} optimum={0} aria-label={`${label} used of the limit`} />}
      </dd>
    </div>
  );
}

/** What the run has used beside the ceilings it is held to; refreshed every second while it runs. */
export function SpendFacts({ run }: { run: RunJson }) {
  const c = run.ceilings;
  // A budget reservation below the run's own cost ceiling is the limit its meter stops at.
  const costLimit = run.reservedUsd !== null && (c?.maxCostUsd == null || run.reservedUsd < c.maxCostUsd) ? run.reservedUsd : (c?.maxCostUsd ?? null);
  const tokens = (run.inputTokens ?? 0) + (run.outputTokens ?? 0);
  return (
    <>
      <Meter label="Cost" testId="run-cost" used={run.costUsd ?? 0} limit={costLimit} format={(v) => `$${v.toFixed(4)}`} />
      <Meter label="Tokens" testId="run-tokens" used={tokens} limit={c?.maxTokens ?? null} format={n} />
      <div><dt>Token split</dt><dd data-testid="run-token-split">{n(run.inputTokens ?? 0)} in ({n(run.cachedTokens)} cached{run.cacheWriteTokens ? `, ${n(run.cacheWriteTokens)} written to the cache` : ""}) · {n(run.outputTokens ?? 0)} out</dd></div>
    </>
  );
}
