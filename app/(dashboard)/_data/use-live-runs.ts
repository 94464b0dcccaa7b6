"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { RunRow } from "@/app/(dashboard)/_data/wire";

export const useLiveRuns = (projectId: string) =>
  useQuery({ queryKey: queryKeys.runs(projectId), queryFn: () => api<{ runs: RunRow[] }>(`/api/projects/${projectId}/runs?live=1`).then((r) => r.runs) });
