"use client";

import { useState } from "react";
import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

type Values = { kind: "pat" | "app"; token: string; appId: string; installationId: string; privateKey: string; webhookSecret: string; apiBaseUrl: string };

// 32 random bytes from the browser: the secret never has to come back from the server.
const randomSecret = () => Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Connects (or reconnects) the project with a token or a GitHub App. Credentials are write-only:
 * the server checks them against GitHub, stores them encrypted and never sends them back, so
 * the webhook secret is shown here, once, from what this form sent.
 */
export function GithubConnectForm({ projectId, onConnected, onCancel }: { projectId: string; onConnected: (webhookSecret: string) => void; onCancel?: () => void }) {
  const [v, setV] = useState<Values>({ kind: "pat", token: "", appId: "", installationId: "", privateKey: "", webhookSecret: "", apiBaseUrl: "" });
  const connect = useApiMutation((d: Values) => api(`/api/projects/${projectId}/github`, {
    method: "PUT",
    body: {
      kind: d.kind,
      ...(d.kind === "pat" ? { token: d.token } : { appId: d.appId, installationId: d.installationId, privateKey: d.privateKey }),
      ...(d.webhookSecret ? { webhookSecret: d.webhookSecret } : {}),
      ...(d.apiBaseUrl.trim() ? { apiBaseUrl: d.apiBaseUrl.trim() } : {}),
    },
  }), {
    invalidate: [queryKeys.github(projectId)],
    onSuccess: () => {
      onConnected(v.webhookSecret);
      setV((old) => ({ ...old, token: "", privateKey: "" }));
    },
  });
  const err = connect.error;
  const errorFor = connect.fieldError;
  const set = (k: keyof Values) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form method="post" className="panel" aria-label="Connect GitHub" onSubmit={(e) => { e.preventDefault(); connect.mutate(v); }}>
      <fieldset disabled={connect.pending}>
        <Field label="Connect with" error={errorFor("kind")}>
          <select name="kind" value={v.kind} onChange={set("kind")}>
            <option value="pat">Personal access token</option>
            <option value="app">GitHub App installation</option>
          </select>
        </Field>
        {v.kind === "pat" ? (
          <Field label="Token" error={errorFor("token")} hint="fine-grained token with Contents, Pull requests and Checks (read and write) on this repository">
            <input name="token" type="password" autoComplete="off" value={v.token} onChange={set("token")} />
          </Field>
        ) : (
          <>
            <div className="grid-form">
              <Field label="App ID" error={errorFor("appId")}><input name="appId" inputMode="numeric" value={v.appId} onChange={set("appId")} /></Field>
              <Field label="Installation ID" error={errorFor("installationId")}><input name="installationId" inputMode="numeric" value={v.installationId} onChange={set("installationId")} /></Field>
            </div>
            <Field label="Private key (PEM)" error={errorFor("privateKey")}>
              <textarea name="privateKey" rows={4} autoComplete="off" value={v.privateKey} onChange={set("privateKey")} placeholder="-----BEGIN RSA PRIVATE KEY-----" />
            </Field>
          </>
        )}
        <Field label="Webhook secret" error={errorFor("webhookSecret")} hint="at least 16 characters; paste the same value into the webhook on GitHub">
          <div className="row nowrap">
            <input name="webhookSecret" autoComplete="off" value={v.webhookSecret} onChange={set("webhookSecret")} />
            <button type="button" className="secondary" onClick={() => setV({ ...v, webhookSecret: randomSecret() })}>Generate</button>
          </div>
        </Field>
        <Field label="API URL (GitHub Enterprise only)" error={errorFor("apiBaseUrl")} hint="leave empty for github.com">
          <input name="apiBaseUrl" value={v.apiBaseUrl} onChange={set("apiBaseUrl")} placeholder="https://github.example.com/api/v3" />
        </Field>
        {err && !["kind", "token", "appId", "installationId", "privateKey", "webhookSecret", "apiBaseUrl"].includes(err.field ?? "") && <p className="error" role="alert">{err.message}</p>}
        <div className="row">
          <button type="submit">Connect</button>
          {onCancel && <button type="button" className="secondary" onClick={onCancel}>Cancel</button>}
        </div>
      </fieldset>
    </form>
  );
}
