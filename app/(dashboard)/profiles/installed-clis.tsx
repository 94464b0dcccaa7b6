import { detectClis } from "@/lib/agents/installed";
import { inheritedProcessEnv } from "@/lib/env";

/** Which adapters' CLIs this machine has, on the PATH its agents get: where, and which version. */
export async function InstalledClis() {
  const path = inheritedProcessEnv(["PATH"]).PATH ?? "";
  const clis = await detectClis(path);
  return (
    <section className="panel" aria-label="Agent CLIs on this machine">
      <h2>Agent CLIs on this machine</h2>
      <p className="muted">Found on the agents&apos; PATH of this server; a runner on another host has its own.</p>
      <table>
        <thead><tr><th>Adapter</th><th>Command</th><th>Found</th><th>Version</th></tr></thead>
        <tbody>
          {clis.map((c) => (
            <tr key={c.adapter} data-cli={c.adapter}>
              <td>{c.adapter}</td>
              <td><code>{c.command}</code></td>
              <td>{c.path ? <code>{c.path}</code> : <span className="muted">not installed: <code>{c.install}</code></span>}</td>
              <td>{c.version ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
