"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { RunJson } from "@/app/(dashboard)/_data/wire";

export const useRun = (runId: string) =>
  useQuery({ queryKey: queryKeys.run(runId), queryFn: () => api<{ run: RunJson }>(`/api/runs/${runId}`).then((r) => r.run) });
