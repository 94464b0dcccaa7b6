import { describe, expect, it } from "vitest";
import { crossedMilestones } from "@/lib/campaigns/state";

// Seed 002 tests `progress in [0.25, 0.50, 0.75]`: with 6 or 7 tasks no count equals them, so the
// milestones fire when progress first reaches or passes each, once.
function fired(total: number): Array<[number, number[]]> {
  const reached: number[] = [];
  const out: Array<[number, number[]]> = [];
  for (let done = 0; done <= total; done++) {
    const crossed = crossedMilestones(done, total, reached);
    if (crossed.length) out.push([done, crossed]);
    reached.push(...crossed);
  }
  return out;
}

describe("drift-check milestones", () => {
  it.each([
    [4, [[1, [25]], [2, [50]], [3, [75]]]],
    [6, [[2, [25]], [3, [50]], [5, [75]]]],
    [7, [[2, [25]], [4, [50]], [6, [75]]]],
    [2, [[1, [25, 50]], [2, [75]]]],
  ])("with %i tasks fire once each", (total, expected) => {
    expect(fired(total)).toEqual(expected);
  });

  it("fires nothing without tasks, nor twice", () => {
    expect(crossedMilestones(0, 0, [])).toEqual([]);
    expect(crossedMilestones(3, 4, [25, 50, 75])).toEqual([]);
  });
});
