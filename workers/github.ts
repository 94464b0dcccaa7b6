import { processDeliveries, processDelivery } from "@/lib/github/deliveries";
import { pollPullRequests, recheckPullRequest } from "@/lib/github/poll";
import { deferOnRateLimit } from "@/workers/rate-limit";
import type { Processor } from "@/workers/manager";

// The delivery rows were handed back before a deferral, so nothing is lost while it sleeps.
// A batch's result counts what it claimed: each claim is a delivery processed once.
export const processGithub: Processor<"github"> = async (data, job) =>
  deferOnRateLimit<unknown>(job, async () => {
    if ("deliveryIds" in data) return { claimed: (await processDeliveries(data.deliveryIds)).size };
    if ("deliveryId" in data) return processDelivery(data.deliveryId);
    if ("pollProjectId" in data) return pollPullRequests(data.pollProjectId);
    return recheckPullRequest(data.recheckPullRequestId);
  });
