"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../_ui/api";
import { queryKeys } from "../../../_live/query-keys";
import type { ActivityRow, PromptRow, RunRow } from "../../../_ui/types";
import type { ProjectDetail } from "@/lib/projects/detail";

// Dates cross the wire as strings.
type Json<T> = T extends Date ? string : T extends object ? { [K in keyof T]: Json<T[K]> } : T;
export type ProjectJson = Json<ProjectDetail>;

const projectKeys = {
  ...queryKeys,
  activity: (id: string, type?: string) => [...queryKeys.activity(id), type ?? "all"] as const,
};

export const useProject = (id: string) =>
  useQuery({ queryKey: projectKeys.project(id), queryFn: () => api<{ project: ProjectJson }>(`/api/projects/${id}`).then((r) => r.project) });

export const usePrompts = (id: string) =>
  useQuery({ queryKey: projectKeys.prompts(id), queryFn: () => api<{ prompts: PromptRow[] }>(`/api/projects/${id}/prompts`).then((r) => r.prompts) });

export const useLiveRuns = (id: string) =>
  useQuery({ queryKey: projectKeys.runs(id), queryFn: () => api<{ runs: RunRow[] }>(`/api/projects/${id}/runs?live=1`).then((r) => r.runs) });

export const useActivity = (id: string, type?: string) =>
  useQuery({
    queryKey: projectKeys.activity(id, type),
    queryFn: () => api<{ events: ActivityRow[] }>(`/api/projects/${id}/activity${type ? `?type=${encodeURIComponent(type)}` : ""}`).then((r) => r.events),
  });

/** A mutation that refreshes everything the project page shows once it lands. */
export function useProjectAction<V, R>(id: string, fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => qc.invalidateQueries({ queryKey: projectKeys.project(id) }) });
}
