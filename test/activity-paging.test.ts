import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { writeActivity } from "@/lib/activity/record";
import { GET as getActivity } from "@/app/api/projects/[id]/activity/route";
import { createTeamWithProject } from "./helpers/fixtures";
import { apiToken, params, request } from "./helpers/api";

type Row = { id: string; type: string; message: string };

// The dashboard's "Show older" asks for the page before the last id it holds, while a page is full.
const PAGE = 100;

async function page(projectId: string, token: string, query: Record<string, string> = {}) {
  const res = await getActivity(request("GET", `/api/projects/${projectId}/activity?${new URLSearchParams(query)}`, token), params(projectId));
  expect(res.status).toBe(200);
  return (await res.json()).events as Row[];
}

/** Every page, as the activity panel reads them by pressing "Show older" until no full page comes. */
async function allPages(projectId: string, token: string, type?: string) {
  const pages: Row[][] = [await page(projectId, token, type ? { type } : {})];
  // Bounded, so a cursor that pages nowhere fails the test instead of looping.
  while (pages.at(-1)!.length === PAGE && pages.length < 10) {
    pages.push(await page(projectId, token, { ...(type ? { type } : {}), before: pages.at(-1)!.at(-1)!.id }));
  }
  return pages;
}

describe("activity log paging", () => {
  it("pages back through older events without gaps or repeats, also when filtered, and only the project's own", async () => {
    const { team, project } = await createTeamWithProject({ loopEnabled: false });
    const other = await createTeamWithProject({ loopEnabled: false });
    const viewer = await apiToken(team.id, "viewer");
    const db = getDb();
    // 250 entries of this project, every second a failure, interleaved with another project's.
    for (let i = 1; i <= 250; i++) {
      await writeActivity(db, project, i % 2 === 0 ? "taskFailed" : "taskAssigned", `entry ${i}`);
      if (i % 50 === 0) await writeActivity(db, other.project, "taskFailed", `foreign ${i}`);
    }

    const pages = await allPages(project.id, viewer);
    const mine = (rows: Row[]) => rows.filter((r) => r.message.startsWith("entry "));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages[0]).toHaveLength(PAGE);
    expect(pages[0][0].message).toBe("entry 250");
    expect(pages[1][0].message).toBe("entry 150");
    const all = pages.flat();
    expect(mine(all).map((r) => r.message)).toEqual(Array.from({ length: 250 }, (_, i) => `entry ${250 - i}`));
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(all.some((r) => r.message.startsWith("foreign"))).toBe(false);

    // A filter pages too: 125 failures, the newest 100 first, then the other 25.
    const failures = await allPages(project.id, viewer, "taskFailed");
    expect(failures.map((p) => p.length)).toEqual([100, 25]);
    expect(failures.flat().map((r) => r.message)).toEqual(Array.from({ length: 125 }, (_, i) => `entry ${250 - 2 * i}`));
  });
});
