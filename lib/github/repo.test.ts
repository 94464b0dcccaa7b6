import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { NotConnectedError, requireRepo } from "@/lib/github/repo";

const project = { id: "p1", teamId: "t1", githubOwner: "acme", githubRepo: "app", githubConnectionId: "c1", baseBranch: "main", activeBranch: null };

describe("requireRepo", () => {
  it("names the repository and its connection", () => {
    expect(requireRepo(project)).toEqual({ owner: "acme", repo: "app", connectionId: "c1" });
  });

  it("is a conflict the user can act on when the project has no connection, not a failure of ours", () => {
    const thrown = (() => { try { requireRepo({ ...project, githubConnectionId: null }); } catch (err) { return err; } })();
    expect(thrown).toBeInstanceOf(NotConnectedError);
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({ status: 409, code: "not_connected", message: "acme/app has no GitHub connection: connect it in the project settings" });
  });

  it("says when the project names no GitHub repository at all", () => {
    expect(() => requireRepo({ ...project, githubRepo: null })).toThrow(expect.objectContaining({ status: 409, code: "not_connected", message: "the project has no GitHub repository" }));
  });
});
