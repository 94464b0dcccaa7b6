import { describe, expect, it } from "vitest";
import { RunStatus } from "@/lib/db/generated/enums";
import { FINISHED_RUN_STATUSES, isLiveRunStatus, LIVE_RUN_STATUSES, LIVE_RUN_STATUSES_SQL } from "@/lib/run-statuses";

describe("run statuses", () => {
  it("splits every run status into live or finished, once", () => {
    expect([...LIVE_RUN_STATUSES, ...FINISHED_RUN_STATUSES].sort()).toEqual(Object.values(RunStatus).sort());
  });

  it("renders the live list for SQL", () => {
    expect(LIVE_RUN_STATUSES_SQL).toBe("'queued', 'starting', 'running'");
    expect(isLiveRunStatus("starting")).toBe(true);
    expect(isLiveRunStatus("succeeded")).toBe(false);
  });
});
