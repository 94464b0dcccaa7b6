import { listRunnerClis } from "@/lib/runners/list";

/** The agent CLIs each of the team's runners reported: a profile runs where its CLI is. */
export async function RunnerClis({ teamId }: { teamId: string }) {
  const runners = await listRunnerClis(teamId);
  if (runners.length === 0) return null;
  return (
    <section className="panel" aria-label="Agent CLIs on runners">
      <h2>Agent CLIs on runners</h2>
      <p className="muted">As each runner found them on its agents&apos; PATH when it last registered. A profile is saved only when its CLI is on this server or on an online runner.</p>
      <table>
        <thead><tr><th>Runner</th><th>Status</th><th>CLIs</th></tr></thead>
        <tbody>
          {runners.map((r) => (
            <tr key={r.id} data-runner={r.name}>
              <td>{r.name}</td>
              <td><span className={`badge ${r.online ? "open" : "revoked"}`}>{r.online ? "online" : "offline"}</span></td>
              <td>
                {r.clis.length === 0 ? <span className="muted">none reported</span> : r.clis.map((c) => (
                  <div key={c.adapter} data-cli={c.adapter}>{c.adapter} <span className="muted">{c.version ?? "no version"}</span> <code className="small">{c.path}</code></div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
