"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { ThreadJson } from "@/app/(dashboard)/_data/wire";

export const useThread = (threadId: string) =>
  useQuery({ queryKey: queryKeys.thread(threadId), queryFn: () => api<{ thread: ThreadJson }>(`/api/threads/${threadId}`).then((r) => r.thread) });
