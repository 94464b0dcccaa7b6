"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { TopRun, UsageRow } from "@/lib/budgets/usage";

export type UsageJson = { period: { from: string; to: string }; rows: UsageRow[]; topRuns: TopRun[] };

export const useUsage = (from: string, to: string) =>
  useQuery({ queryKey: queryKeys.usage(from, to), queryFn: () => api<UsageJson>(`/api/usage?from=${from}&to=${to}`) });
