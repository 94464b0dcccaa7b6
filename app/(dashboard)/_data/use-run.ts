"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { RunJson } from "@/app/(dashboard)/_data/wire";

import { isLiveRunStatus } from "@/lib/run-statuses";

// A live run's tokens and cost change with every model call, without an event each: re-read
// the run every second while it is live (its worker writes them at most once a second).
export const useRun = (runId: string) =>
  useQuery({
    queryKey: queryKeys.run(runId),
    queryFn: () => api<{ run: RunJson }>(`/api/runs/${runId}`).then((r) => r.run),
    refetchInterval: (q) => (q.state.data && isLiveRunStatus(q.state.data.status) ? 1000 : false),
  });
