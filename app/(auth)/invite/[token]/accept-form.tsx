"use client";

import { useActionState } from "react";
import { acceptAsSignedIn, acceptWithAccount } from "./actions";
import { AuthField } from "@/app/(auth)/auth-field";
import type { FormState } from "@/app/(auth)/form-state";

export function NewAccountForm({ token, email }: { token: string; email: string | null }) {
  const [state, action, pending] = useActionState<FormState, FormData>(acceptWithAccount.bind(null, token), {});
  const e = state.errors ?? {};
  const v = state.values ?? {};
  return (
    <form action={action} noValidate>
      <AuthField name="name" label="Your name" autoComplete="name" defaultValue={v.name} key={`n${v.name}`} error={e.name} autoFocus />
      <AuthField name="email" label="Email" type="email" autoComplete="username" required defaultValue={v.email ?? email ?? ""} key={`e${v.email}`}
        readOnly={Boolean(email)} error={e.email} />
      <AuthField name="password" label="Password" type="password" autoComplete="new-password" required minLength={10} error={e.password} />
      {e.form && <p className="error" role="alert">{e.form}</p>}
      <button type="submit" disabled={pending}>{pending ? "Joining…" : "Create account and join"}</button>
    </form>
  );
}

export function JoinButton({ token, teamName }: { token: string; teamName: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(acceptAsSignedIn.bind(null, token), {});
  const e = state.errors ?? {};
  return (
    <form action={action}>
      {(e.form || e.invitation) && <p className="error" role="alert">{e.form ?? `You are ${e.invitation}.`}</p>}
      <button type="submit" disabled={pending}>{pending ? "Joining…" : `Join ${teamName}`}</button>
    </form>
  );
}
