import type { listActivity } from "@/lib/activity/queries";
import type { ProjectDetail } from "@/lib/projects/detail";
import type { ProjectListItem } from "@/lib/projects/queries";
import type { listPrompts } from "@/lib/prompts/queries";
import type { getRunDetail, listRuns } from "@/lib/runs/queries";
import type { connectionView } from "@/lib/github/connection";
import type { ConnectionCheck, listDeliveries } from "@/lib/github/connection-check";

/** A server value as it crosses the wire: dates arrive as strings. */
export type Json<T> = T extends Date ? string : T extends bigint ? string : T extends object ? { [K in keyof T]: Json<T[K]> } : T;

type Row<F extends (...args: never[]) => Promise<unknown>> = Json<Awaited<ReturnType<F>>>;

export type ProjectJson = Json<ProjectDetail>;
export type ProjectListJson = Json<ProjectListItem>;
export type PromptRow = Row<typeof listPrompts>[number];
export type RunRow = Row<typeof listRuns>[number];
export type ActivityRow = Row<typeof listActivity>[number];
export type RunJson = NonNullable<Row<typeof getRunDetail>>;
export type ThreadJson = Json<import("@/lib/threads/queries").ThreadDetail>;
export type TurnJson = ThreadJson["turns"][number];
export type ThreadSummaryJson = Json<import("@/lib/threads/queries").ThreadSummary>;
export type GithubConnectionJson = Json<ReturnType<typeof connectionView>>;
export type GithubCheckJson = Json<ConnectionCheck>;
export type DeliveryRow = Row<typeof listDeliveries>[number];
export type CampaignView = Json<Awaited<ReturnType<typeof import("@/lib/campaigns/queries").getCampaignView>>>;
