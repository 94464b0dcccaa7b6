import { describe, expect, it } from "vitest";
import { periodStart } from "@/lib/budgets/periods";

describe("budget periods", () => {
  it("start at UTC midnight and on the first of the UTC month", () => {
    const now = new Date("2026-03-31T23:59:59.999Z");
    expect(periodStart("day", now).toISOString()).toBe("2026-03-31T00:00:00.000Z");
    expect(periodStart("month", now).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(periodStart("day", new Date("2026-04-01T00:00:00.000Z")).toISOString()).toBe("2026-04-01T00:00:00.000Z");
  });
});
