"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { ActivityRow } from "@/app/(dashboard)/_data/wire";

// The API's page size: a full page means older events may remain.
const PAGE = 100;

/** A project's activity, newest first, one page at a time (`fetchNextPage` reads older events). */
export const useActivity = (projectId: string, type?: string) =>
  useInfiniteQuery({
    queryKey: queryKeys.activity(projectId, type ?? "all"),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const q = new URLSearchParams({ ...(type ? { type } : {}), ...(pageParam ? { before: pageParam } : {}) });
      return api<{ events: ActivityRow[] }>(`/api/projects/${projectId}/activity?${q}`).then((r) => r.events);
    },
    getNextPageParam: (last) => (last.length === PAGE ? last[last.length - 1].id : undefined),
  });
