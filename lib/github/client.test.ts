import { describe, expect, it } from "vitest";
import { rateLimitWaitMs } from "@/lib/github/client";

describe("rate-limit waits", () => {
  const now = 1_700_000_000_000;
  it("reads the primary limit's reset, Retry-After and the secondary limit's message", () => {
    expect(rateLimitWaitMs({ status: 403, response: { headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(now / 1000 + 30) } } }, now)).toBe(31_000);
    expect(rateLimitWaitMs({ status: 429, response: { headers: { "retry-after": "7" } } }, now)).toBe(7_000);
    expect(rateLimitWaitMs({ status: 403, message: "You have exceeded a secondary rate limit", response: { headers: {} } }, now)).toBe(60_000);
  });
  it("is null for other errors", () => {
    expect(rateLimitWaitMs({ status: 403, message: "Resource not accessible by integration", response: { headers: { "x-ratelimit-remaining": "4999" } } }, now)).toBeNull();
    expect(rateLimitWaitMs({ status: 500 }, now)).toBeNull();
    expect(rateLimitWaitMs(new Error("boom"), now)).toBeNull();
  });
});
