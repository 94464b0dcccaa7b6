"use client";

import { useActionState } from "react";
import { signUp } from "./actions";
import { AuthField } from "@/app/(auth)/auth-field";
import type { FormState } from "@/app/(auth)/form-state";

export function SignUpForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(signUp, {});
  const e = state.errors ?? {};
  const v = state.values ?? {};
  return (
    <form action={action} noValidate>
      <AuthField name="name" label="Your name" autoComplete="name" defaultValue={v.name} key={`n${v.name}`} error={e.name} autoFocus />
      <AuthField name="email" label="Email" type="email" autoComplete="username" required defaultValue={v.email} key={`e${v.email}`} error={e.email} />
      <AuthField name="password" label="Password" type="password" autoComplete="new-password" required minLength={10} error={e.password} />
      <AuthField name="teamName" label="Team name" required defaultValue={v.teamName} key={`t${v.teamName}`} error={e.teamName} />
      {e.form && <p className="error" role="alert">{e.form}</p>}
      <button type="submit" disabled={pending}>{pending ? "Creating…" : "Create account and team"}</button>
    </form>
  );
}
