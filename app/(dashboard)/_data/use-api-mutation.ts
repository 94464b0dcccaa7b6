"use client";

import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition, type FormEvent } from "react";
import { ApiError } from "@/app/(dashboard)/_ui/api";

interface Options<R> {
  /** Shared query keys (`queryKeys` of ./query-keys) to mark stale once the call lands or fails. */
  invalidate?: QueryKey[];
  /** Re-render the server page after a success: for data a server component passed down as props. */
  refresh?: boolean;
  onSuccess?: (result: R) => void;
}

/**
 * The dashboard's one way to change something through our API. Its error is always an `ApiError`
 * (a failed fetch too), `fieldError(name)` is the message for a field the server named (or one of
 * its items, `name.N`), and `pending` lasts until a requested refresh has re-rendered the page.
 */
export function useApiMutation<V, R>(fn: (v: V) => Promise<R>, opts: Options<R> = {}) {
  const qc = useQueryClient();
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const mutation = useMutation({
    mutationFn: fn,
    onSuccess: (result: R) => {
      opts.onSuccess?.(result);
      if (opts.refresh) startTransition(() => router.refresh());
    },
    onSettled: () => Promise.all((opts.invalidate ?? []).map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
  const error = mutation.error === null ? null
    : mutation.error instanceof ApiError ? mutation.error : new ApiError(0, mutation.error.message);
  // Every field the server refused has its own sentence; a list's items show under the list.
  const fieldError = (name: string) => {
    const entries = Object.entries(error?.fields ?? {}).filter(([f]) => f === name || f.startsWith(`${name}.`));
    return entries.length ? entries.map(([, m]) => m).join("; ") : undefined;
  };
  return { ...mutation, error, fieldError, pending: mutation.isPending || refreshing };
}

/**
 * A form's submit handler that sends its fields and clears it once they land. Not a form action:
 * React resets a form after its action, which would throw away what was typed when the server
 * answers with a field's error.
 */
export function submitFormData(mutation: { mutate: (form: FormData, opts: { onSuccess: () => void }) => void }) {
  return (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    mutation.mutate(new FormData(form), { onSuccess: () => form.reset() });
  };
}
