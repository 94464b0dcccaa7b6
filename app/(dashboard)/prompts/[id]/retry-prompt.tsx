"use client";

import { api } from "@/app/(dashboard)/_ui/api";
import { useApiMutation } from "@/app/(dashboard)/_data/use-api-mutation";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";

/** Sends a failed or cancelled prompt back to the queue with fresh attempts. */
export function RetryPrompt({ id }: { id: string }) {
  const retry = useApiMutation(() => api(`/api/prompts/${id}/actions`, { method: "POST", body: { action: "retry" } }), {
    refresh: true, invalidate: [queryKeys.prompt(id)],
  });
  return (
    <div className="row">
      <button type="button" onClick={() => retry.mutate()} disabled={retry.isPending}>Retry</button>
      {retry.error && <p className="error small" role="alert">{retry.error.message}</p>}
    </div>
  );
}
