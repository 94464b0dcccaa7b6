"use client";

import { useState } from "react";
import { Field } from "@/app/(dashboard)/_ui/field";
import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";

/** Creates a team the person owns and switches to it (the answer sets the current team). */
export function NewTeamForm() {
  const [name, setName] = useState("");
  const create = useApiMutation((n: string) => api("/api/teams", { method: "POST", body: { name: n } }), { onSuccess: () => window.location.assign("/") });
  const { error, pending, fieldError } = create;
  return (
    <form method="post" className="stack" noValidate aria-label="New team" onSubmit={(e) => { e.preventDefault(); create.mutate(name); }}>
      <Field label="Team name" error={fieldError("name")}>
        <input name="name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      </Field>
      {error && !error.field && <p className="error" role="alert">{error.message}</p>}
      <button type="submit" disabled={pending}>Create team</button>
    </form>
  );
}
