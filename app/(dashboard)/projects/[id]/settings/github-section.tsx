"use client";

import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Ago } from "@/app/(dashboard)/_ui/time";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import { useGithubConnection } from "@/app/(dashboard)/_data/use-github-connection";
import type { GithubCheckJson } from "@/app/(dashboard)/_data/wire";
import { HeadLine } from "@/app/(dashboard)/projects/_components/repository-test";
import { GithubConnectForm } from "./github-connect-form";
import { GithubDeliveries } from "./github-deliveries";
import { GithubMentionsForm } from "./github-mentions-form";

const KIND = { pat: "personal access token", app: "GitHub App" } as Record<string, string>;

/** A GitHub project's connection: connect, test, the webhook to set up on GitHub, its deliveries. */
export function GithubSection({ projectId, repository, webhookUrl, canAdmin }: { projectId: string; repository: string; webhookUrl: string; canAdmin: boolean }) {
  const { data: connection, isLoading } = useGithubConnection(projectId);
  const [replacing, setReplacing] = useState(false);
  const [freshSecret, setFreshSecret] = useState<string | null>(null);
  const test = useApiMutation(() => api<GithubCheckJson>(`/api/projects/${projectId}/github/test`, { method: "POST" }));
  const disconnect = useApiMutation(() => api(`/api/projects/${projectId}/github`, { method: "DELETE" }), { invalidate: [queryKeys.github(projectId)], onSuccess: () => test.reset() });
  if (isLoading) return <div className="panel skeleton" aria-busy="true" />;
  const connected = (secret: string) => { setFreshSecret(secret || null); setReplacing(false); test.reset(); };
  return (
    <section aria-label="GitHub" className="github-settings">
      {connection ? (
        <div className="panel">
          <dl className="facts">
            <div><dt>Repository</dt><dd><code>{repository}</code></dd></div>
            <div><dt>Connected with</dt><dd>{KIND[connection.kind] ?? connection.kind}{connection.appId ? ` ${connection.appId} (installation ${connection.installationId})` : ""}</dd></div>
            <div><dt>Acts as</dt><dd>{connection.botLogin ?? "—"}</dd></div>
            <div><dt>Listens for</dt><dd>{connection.mentionLogin ? `@${connection.mentionLogin}` : "no mentions"}</dd></div>
            <div><dt>API</dt><dd>{connection.apiBaseUrl ?? "github.com"}</dd></div>
            <div><dt>Webhook secret</dt><dd>{connection.hasWebhookSecret ? "set (not shown again)" : <span className="warn">none: deliveries are checked with the server&apos;s own secret, if it has one</span>}</dd></div>
            <div><dt>Since</dt><dd><Ago at={connection.createdAt} /></dd></div>
          </dl>
          <div className="row">
            <button type="button" onClick={() => test.mutate(undefined)} disabled={test.pending || !canAdmin}>Test connection</button>
            {canAdmin && <button type="button" className="secondary" onClick={() => setReplacing(!replacing)}>Replace credentials</button>}
            {canAdmin && <button type="button" className="secondary danger" disabled={disconnect.pending}
              onClick={() => { if (confirm("Disconnect GitHub? Runs of this project cannot push or open pull requests until it is connected again.")) disconnect.mutate(undefined); }}>Disconnect</button>}
            {!canAdmin && <span className="small muted">Only an admin can test or change the connection.</span>}
          </div>
          {test.data && (test.data.ok
            ? <div role="status"><p className="ok small">Connected as {test.data.login ?? "—"}: {test.data.repository} is reachable.</p><HeadLine head={test.data.head} /></div>
            : <p className="error" role="alert">Test failed ({test.data.step}): {test.data.message}</p>)}
          {(test.error ?? disconnect.error) && <p className="error" role="alert">{(test.error ?? disconnect.error)!.message}</p>}
        </div>
      ) : (
        <p className="warn">Not connected: this project&apos;s runs cannot fetch, push or open pull requests until it is.</p>
      )}
      {canAdmin && connection && <GithubMentionsForm projectId={projectId} mentionLogin={connection.mentionLogin} botLogin={connection.botLogin} />}
      {canAdmin && (!connection || replacing) && <GithubConnectForm projectId={projectId} onConnected={connected} onCancel={connection ? () => setReplacing(false) : undefined} />}
      <div className="panel">
        <h3>Webhook</h3>
        <p className="small">On GitHub: the repository&apos;s Settings → Webhooks → Add webhook (or the App&apos;s webhook settings).</p>
        <dl className="facts stack">
          <div><dt>Payload URL</dt><dd><pre className="copyable" data-testid="webhook-url">{webhookUrl}</pre></dd></div>
          <div><dt>Content type</dt><dd><code>application/json</code></dd></div>
          <div><dt>Events</dt><dd>Pull requests, pull request reviews and review comments, issues, issue comments, check runs and suites, statuses, pushes</dd></div>
          <div><dt>Secret</dt><dd>{freshSecret
            ? <><pre className="copyable" data-testid="webhook-secret">{freshSecret}</pre><small className="warn">Copy it into GitHub now: it is stored encrypted and never shown again.</small></>
            : <span className="muted small">the webhook secret you entered when connecting; to change it, replace the credentials with a new one</span>}</dd></div>
        </dl>
      </div>
      <GithubDeliveries projectId={projectId} />
    </section>
  );
}
