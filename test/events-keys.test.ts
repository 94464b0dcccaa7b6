import { describe, expect, it } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { invalidationsFor, queryKeys } from "@/app/(dashboard)/_data/query-keys";

// Which cached queries the live provider marks stale for an event, checked on a real
// QueryClient holding one query of each kind (plus another project's).
function staleAfter(event: Parameters<typeof invalidationsFor>[0]) {
  const qc = new QueryClient();
  const keys = [
    queryKeys.projects(), queryKeys.project("p1"), queryKeys.prompts("p1"), queryKeys.runs("p1"),
    [...queryKeys.activity("p1"), "all"], queryKeys.run("r1"), queryKeys.prompt("q1"), queryKeys.project("p2"), queryKeys.prompts("p2"),
  ];
  for (const k of keys) qc.setQueryData(k, 1);
  for (const f of invalidationsFor(event)) void qc.invalidateQueries({ ...f, refetchType: "none" });
  return qc.getQueryCache().getAll().filter((q) => q.isStale()).map((q) => q.queryKey.join("/")).sort();
}

describe("live events → query invalidation", () => {
  it("a run change marks the project, its runs, prompts, activity and the run stale — nothing of other projects", () => {
    expect(staleAfter({ id: "1-0", type: "runChange", projectId: "p1", runId: "r1", promptId: "q1", message: "P1 started" })).toEqual(
      ["project/p1", "project/p1/activity/all", "project/p1/prompts", "project/p1/runs", "projects", "prompt/q1", "run/r1"],
    );
  });

  it("a prompts change leaves the project's runs and state alone", () => {
    expect(staleAfter({ id: "1-0", type: "promptsChange", projectId: "p1" })).toEqual(["project/p1/prompts", "projects"]);
  });

  it("a loop event touches the project's state and activity", () => {
    expect(staleAfter({ id: "1-0", type: "paused", projectId: "p1", message: "paused" })).toEqual(["project/p1", "project/p1/activity/all", "projects"]);
  });
});
