"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { ProjectJson } from "@/app/(dashboard)/_data/wire";

export const useProject = (id: string) =>
  useQuery({ queryKey: queryKeys.project(id), queryFn: () => api<{ project: ProjectJson }>(`/api/projects/${id}`).then((r) => r.project) });
