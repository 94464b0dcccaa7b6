"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { DeliveryRow } from "@/app/(dashboard)/_data/wire";

// Deliveries announce no live event of their own: the list is re-read now and then.
export const useGithubDeliveries = (projectId: string) =>
  useQuery({
    queryKey: queryKeys.githubDeliveries(projectId),
    queryFn: () => api<{ deliveries: DeliveryRow[] }>(`/api/projects/${projectId}/github/deliveries`).then((r) => r.deliveries),
    refetchInterval: 15_000,
  });
