import { processSlackDelivery } from "@/lib/slack/process";
import type { Processor } from "@/workers/manager";

export const processSlack: Processor<"slack"> = async (data) => processSlackDelivery(data.deliveryRowId);
