"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { ActivityRow } from "@/app/(dashboard)/_data/wire";

export const useActivity = (projectId: string, type?: string) =>
  useQuery({
    queryKey: queryKeys.activity(projectId, type ?? "all"),
    queryFn: () => api<{ events: ActivityRow[] }>(`/api/projects/${projectId}/activity${type ? `?type=${encodeURIComponent(type)}` : ""}`).then((r) => r.events),
  });
