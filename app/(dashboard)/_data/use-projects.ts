"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/app/(dashboard)/_ui/api";
import { queryKeys } from "@/app/(dashboard)/_data/query-keys";
import type { ProjectListJson } from "@/app/(dashboard)/_data/wire";

/** The team's projects; the page's server render is the first value, the live stream keeps it fresh. */
export const useProjects = (initial: ProjectListJson[]) =>
  useQuery({ queryKey: queryKeys.projects(), queryFn: () => api<{ projects: ProjectListJson[] }>("/api/projects").then((r) => r.projects), initialData: initial });
