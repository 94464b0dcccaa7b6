"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { PromptRow } from "@/app/(dashboard)/_data/wire";

export const usePrompts = (projectId: string) =>
  useQuery({ queryKey: queryKeys.prompts(projectId), queryFn: () => api<{ prompts: PromptRow[] }>(`/api/projects/${projectId}/prompts`).then((r) => r.prompts) });
