"use client";

import { useState } from "react";
import { Field } from "@/app/(dashboard)/_ui/field";
import { AdminTable, RowAction } from "@/app/(dashboard)/_ui/admin-table";
import { api } from "@/app/(dashboard)/_ui/api";
import { submitFormData, useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { SlackSetup } from "./slack-setup";

export type SlackConnectionView = { workspaceId: string; workspaceName: string | null; botUserId: string; eventsUrl: string; createdAt: string | Date };
export type SlackChannelView = { channelId: string; projectId: string; projectName: string };
type SlackCheck = { ok: true; workspaceName: string | null; workspaceId: string; botUserId: string } | { ok: false; message: string };

function ConnectForm({ onDone }: { onDone?: () => void }) {
  const save = useApiMutation((data: FormData) => api("/api/team/slack", {
    method: "PUT", body: { botToken: String(data.get("botToken") ?? ""), signingSecret: String(data.get("signingSecret") ?? "") },
  }), { refresh: true, onSuccess: () => onDone?.() });
  return (
    <form method="post" className="stack" noValidate onSubmit={submitFormData(save)} aria-label="Connect Slack">
      <div className="form-row">
        <Field label="Bot token" hint="xoxb-…, from OAuth & Permissions; stored encrypted, never shown again" error={save.fieldError("botToken")}>
          <input name="botToken" type="password" autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="Signing secret" hint="from Basic Information → App Credentials" error={save.fieldError("signingSecret")}>
          <input name="signingSecret" type="password" autoComplete="off" spellCheck={false} />
        </Field>
      </div>
      {save.error && !save.error.field && <p className="error" role="alert">{save.error.message}</p>}
      <button type="submit" disabled={save.pending}>Connect Slack</button>
    </form>
  );
}

/** The team's Slack app: connect it, test it, and say which channel asks for which project. */
export function SlackPanel({ connection, channels, projects }: { connection: SlackConnectionView | null; channels: SlackChannelView[]; projects: Array<{ id: string; name: string }> }) {
  const [replacing, setReplacing] = useState(false);
  const test = useApiMutation(() => api<SlackCheck>("/api/team/slack/test", { method: "POST" }));
  const disconnect = useApiMutation(() => api("/api/team/slack", { method: "DELETE" }), { refresh: true, onSuccess: () => test.reset() });
  const map = useApiMutation((data: FormData) => api("/api/team/slack/channels", {
    method: "PUT", body: { channelId: String(data.get("channelId") ?? "").trim(), projectId: String(data.get("projectId") ?? "") },
  }), { refresh: true });
  const unmap = useApiMutation((channelId: string) => api(`/api/team/slack/channels/${channelId}`, { method: "DELETE" }), { refresh: true });
  if (!connection) return <div className="stack"><p className="muted">Not connected.</p><ConnectForm /><SlackSetup eventsUrl={null} /></div>;
  return (
    <div className="stack">
      <dl className="facts">
        <div><dt>Workspace</dt><dd>{connection.workspaceName ?? connection.workspaceId} <span className="muted small">({connection.workspaceId})</span></dd></div>
        <div><dt>Bot user</dt><dd><code>{connection.botUserId}</code></dd></div>
      </dl>
      <div className="row">
        <button type="button" onClick={() => test.mutate(undefined)} disabled={test.pending}>Test connection</button>
        <button type="button" className="secondary" onClick={() => setReplacing(!replacing)}>Replace credentials</button>
        <button type="button" className="secondary danger" disabled={disconnect.pending}
          onClick={() => { if (confirm("Disconnect Slack? Messages in its channels will no longer start work.")) disconnect.mutate(undefined); }}>Disconnect</button>
      </div>
      {test.data && (test.data.ok
        ? <p className="ok small" role="status">Slack answers: connected to {test.data.workspaceName ?? test.data.workspaceId} as {test.data.botUserId}.</p>
        : <p className="error" role="alert">Test failed: {test.data.message}</p>)}
      {(test.error ?? disconnect.error) && <p className="error" role="alert">{(test.error ?? disconnect.error)!.message}</p>}
      {replacing && <ConnectForm onDone={() => setReplacing(false)} />}
      <h3>Channels</h3>
      {channels.length === 0 ? <p className="muted">No channel is mapped yet: the bot answers in unmapped channels that it cannot take work there.</p> : (
        <AdminTable testId="slack-channels" headers={["Channel", "Project", null]} error={unmap.error}>
          {channels.map((c) => (
            <tr key={c.channelId}>
              <td><code>{c.channelId}</code></td>
              <td>{c.projectName}</td>
              <td className="actions"><RowAction label={`Unmap ${c.channelId}`} disabled={unmap.pending} run={() => unmap.mutate(c.channelId)} /></td>
            </tr>
          ))}
        </AdminTable>
      )}
      <form method="post" className="stack" noValidate onSubmit={submitFormData(map)} aria-label="Map a channel">
        <div className="form-row">
          <Field label="Slack channel" hint="its id, e.g. C0123ABCD (channel details → About)" error={map.fieldError("channelId")}>
            <input name="channelId" autoComplete="off" spellCheck={false} />
          </Field>
          <Field label="Project" error={map.fieldError("projectId")}>
            <select name="projectId" defaultValue={projects[0]?.id}>{projects.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}</select>
          </Field>
        </div>
        {map.error && !map.error.field && <p className="error" role="alert">{map.error.message}</p>}
        <button type="submit" disabled={map.pending}>Map channel</button>
      </form>
      <SlackSetup eventsUrl={connection.eventsUrl} />
    </div>
  );
}
