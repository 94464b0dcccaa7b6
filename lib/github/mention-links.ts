import { getEnv } from "@/lib/env";

const link = (path: string) => new URL(path, getEnv().APP_URL).toString();
export const runLink = (id: string) => link(`/runs/${id}`);
export const promptLink = (id: string) => link(`/prompts/${id}`);
export const threadLink = (id: string) => link(`/threads/${id}`);
