"use client";

import { useQuery } from "@tanstack/react-query";
import { api, ApiError } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { GithubConnectionJson } from "@/app/(dashboard)/_data/wire";

// The route answers 404 while the project has no connection: that is "not connected", not an error.
export const useGithubConnection = (projectId: string) =>
  useQuery({
    queryKey: queryKeys.github(projectId),
    queryFn: () => api<GithubConnectionJson>(`/api/projects/${projectId}/github`)
      .catch((err) => { if (err instanceof ApiError && err.status === 404) return null; throw err; }),
  });
