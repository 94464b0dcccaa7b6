// The trivial ceiling route exists for bench:webhooks only: not found unless BENCH_ROUTES=on.
import { afterEach, describe, expect, it, vi } from "vitest";

const routeWith = async (value: string | undefined) => {
  if (value === undefined) delete process.env.BENCH_ROUTES;
  else process.env.BENCH_ROUTES = value;
  // lib/env.ts reads the configuration once per module instance: a fresh one for each value.
  vi.resetModules();
  return (await import("@/app/api/webhooks/ceiling/route")).POST;
};
const post = (POST: Awaited<ReturnType<typeof routeWith>>) =>
  POST(new Request("http://localhost/api/webhooks/ceiling", { method: "POST", body: '{"zen":"x"}' }), undefined);

afterEach(() => { delete process.env.BENCH_ROUTES; });

describe("/api/webhooks/ceiling", () => {
  it.each([[undefined], ["off"]])("is not found when BENCH_ROUTES is %s", async (value) => {
    const res = await post(await routeWith(value));
    expect([res.status, await res.json()]).toEqual([404, { error: { code: "not_found", message: "not found" } }]);
  });

  it("answers 202 when BENCH_ROUTES=on", async () => {
    const res = await post(await routeWith("on"));
    expect([res.status, await res.json()]).toEqual([202, { accepted: true }]);
  });
});
