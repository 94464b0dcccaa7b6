"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { CampaignView } from "@/app/(dashboard)/_data/wire";

export const useCampaign = (id: string) =>
  useQuery({ queryKey: queryKeys.campaign(id), queryFn: () => api<CampaignView>(`/api/campaigns/${id}`) });

export const useCampaigns = (projectId: string) =>
  useQuery({
    queryKey: queryKeys.campaigns(projectId),
    queryFn: () => api<{ campaigns: CampaignView["campaign"][] }>(`/api/projects/${projectId}/campaigns`).then((r) => r.campaigns),
  });
