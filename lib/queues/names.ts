import { z } from "zod";

/** The most webhook deliveries one github job carries. */
export const MAX_DELIVERY_BATCH = 200;

// Job data carries ids, never secrets: the processor re-reads the row.
export const queuePayloads = {
  tick: z.object({ projectId: z.string().min(1), reason: z.string().max(200) }),
  spawn: z.object({ runId: z.string().min(1) }),
  merge: z.object({ runId: z.string().min(1) }),
  // A webhook delivery to process, deliveries that arrived together (in arrival order), a project
  // whose pull requests are polled (no webhooks), or one pull request to look at again now (a
  // person approved its merge or more fix cycles).
  github: z.union([
    z.object({ deliveryId: z.string().min(1) }),
    z.object({ deliveryIds: z.array(z.string().min(1)).min(1).max(MAX_DELIVERY_BATCH) }),
    z.object({ pollProjectId: z.string().min(1) }),
    z.object({ recheckPullRequestId: z.string().min(1) }),
  ]),
  // A stored Slack event (its WebhookDelivery row id) to route.
  slack: z.object({ deliveryRowId: z.string().min(1) }),
} as const;

export type QueueName = keyof typeof queuePayloads;
export type QueuePayload<Q extends QueueName> = z.infer<(typeof queuePayloads)[Q]>;
export const queueNames = Object.keys(queuePayloads) as QueueName[];
