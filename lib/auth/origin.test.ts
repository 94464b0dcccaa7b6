import { describe, expect, it } from "vitest";
import { isSameOrigin } from "@/lib/auth/origin";

const h = (headers: Record<string, string>) => new Headers(headers);

describe("isSameOrigin", () => {
  it.each([
    ["same scheme and host", "http://app.test:3000", { host: "app.test:3000" }, "http://app.test:3000/api/x", true],
    ["Origin: null", "null", { host: "app.test" }, "http://app.test/api/x", false],
    ["garbage", "not a url", { host: "app.test" }, "http://app.test/api/x", false],
    ["no Origin", null, { host: "app.test" }, "http://app.test/api/x", false],
    ["another host", "http://evil.test", { host: "app.test" }, "http://app.test/api/x", false],
    ["http page against an https site", "http://app.test", { host: "app.test", "x-forwarded-proto": "https" }, "http://localhost:3000/api/x", false],
    ["https through the proxy", "https://app.test", { host: "localhost:3000", "x-forwarded-host": "app.test", "x-forwarded-proto": "https" }, "http://localhost:3000/api/x", true],
    ["a port differs", "http://app.test:4000", { host: "app.test:3000" }, "http://app.test:3000/api/x", false],
  ] as const)("%s", (_l, origin, headers, url, expected) => {
    expect(isSameOrigin(origin, h(headers), url)).toBe(expected);
  });
});
