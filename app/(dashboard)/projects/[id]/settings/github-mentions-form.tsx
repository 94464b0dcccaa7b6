"use client";

import { api } from "@/app/(dashboard)/_ui/api";
import { Field } from "@/app/(dashboard)/_ui/field";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

/**
 * The login people assign issues to and mention to ask for work. Uncontrolled, so what was typed
 * stays when the server refuses it; empty turns mentions off.
 */
export function GithubMentionsForm({ projectId, mentionLogin, botLogin }: { projectId: string; mentionLogin: string | null; botLogin: string | null }) {
  const save = useApiMutation((form: FormData) => api(`/api/projects/${projectId}/github`, {
    method: "PATCH", body: { mentionLogin: String(form.get("mentionLogin") ?? "") },
  }), { invalidate: [queryKeys.github(projectId)] });
  const suggestion = botLogin?.replace(/\[bot\]$/, "") ?? "ringmaster-bot";
  return (
    <form method="post" className="panel" aria-label="GitHub mentions" onSubmit={(e) => { e.preventDefault(); save.mutate(new FormData(e.currentTarget)); }}>
      <h3>Mentions</h3>
      <p className="small">
        {mentionLogin
          ? <>Assign an issue to <code>@{mentionLogin}</code> or write <code>@{mentionLogin} …</code> in a comment to ask for work. Only people with write access to the repository are heard.</>
          : <>Off: issues and comments on GitHub start nothing. Set the login people should mention.</>}
      </p>
      <fieldset disabled={save.pending}>
        <Field label="Bot login for mentions" error={save.fieldError("mentionLogin")} hint="the GitHub account people assign and @mention; empty turns mentions off">
          <input name="mentionLogin" defaultValue={mentionLogin ?? ""} placeholder={suggestion} autoComplete="off" />
        </Field>
        {save.error && !save.fieldError("mentionLogin") && <p className="error" role="alert">{save.error.message}</p>}
        {save.isSuccess && !save.pending && <p className="ok small" role="status">Saved.</p>}
        <div className="row"><button type="submit">Save</button></div>
      </fieldset>
    </form>
  );
}
