type Counts = Record<string, number>;

const list = (counts: Counts) => Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)).map(([host, n]) => `${host} ×${n}`).join(", ");

/** The hosts the run's sandbox let through and refused (its egress proxy's counts). */
export function EgressFacts({ egress: raw }: { egress: unknown }) {
  // Stored as JSON on the run: { allowed: { host: n }, blocked: { host: n } } once a sandbox counted.
  const egress = raw as { allowed: Counts; blocked: Counts } | null;
  const allowed = egress ? Object.keys(egress.allowed).length : 0;
  const blocked = egress ? Object.keys(egress.blocked).length : 0;
  return (
    <div data-testid="run-egress"><dt>Network</dt><dd>
      {allowed === 0 && blocked === 0 ? "no outbound requests" : <>
        {allowed} {allowed === 1 ? "host" : "hosts"} allowed{allowed > 0 && <> ({list(egress!.allowed)})</>}
        {" · "}<span className={blocked ? "warn" : undefined}>{blocked} blocked{blocked > 0 && <> ({list(egress!.blocked)})</>}</span>
      </>}
    </dd></div>
  );
}
