import { processDelivery } from "@/lib/github/deliveries";
import { pollPullRequests, recheckPullRequest } from "@/lib/github/poll";
import { deferOnRateLimit } from "@/workers/rate-limit";
import type { Processor } from "@/workers/manager";

// The delivery row was handed back before a deferral, so nothing is lost while it sleeps.
export const processGithub: Processor<"github"> = async (data, job) =>
  deferOnRateLimit<unknown>(job, () => {
    if ("deliveryId" in data) return processDelivery(data.deliveryId);
    if ("pollProjectId" in data) return pollPullRequests(data.pollProjectId);
    return recheckPullRequest(data.recheckPullRequestId);
  });
