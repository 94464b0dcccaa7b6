"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { api, ApiError } from "../../_ui/api";

/** Sends one API request, then re-renders the server page; keeps the error (and its field). */
export function useSend() {
  const router = useRouter();
  const [error, setError] = useState<ApiError | null>(null);
  const [pending, startTransition] = useTransition();
  async function send<T>(path: string, init: { method: string; body?: unknown }): Promise<T | null> {
    setError(null);
    try {
      const data = await api<T>(path, init);
      startTransition(() => router.refresh());
      return data;
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, (err as Error).message));
      return null;
    }
  }
  return { send, error, pending, fieldError: (name: string) => (error?.field === name ? error.message : undefined) };
}
