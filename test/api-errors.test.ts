import { describe, expect, it } from "vitest";
import { handle } from "@/app/api/_lib/handler";
import { AccessError } from "@/lib/auth/access";
import { EnvError } from "@/lib/env";
import { ControlError, DomainError } from "@/lib/errors";
import { GitError } from "@/lib/git";
import { NotConnectedError } from "@/lib/github/repo";
import { PromptStateError } from "@/lib/prompts/update";

const answer = async (err: Error) => {
  const res = await handle(async () => { throw err; })(new Request("http://localhost/api/x"), {});
  return { status: res.status, body: await res.json() };
};

describe("the route handler maps the one error family", () => {
  it.each([
    [new AccessError(404, "run not found"), 404, { code: "not_found", message: "run not found" }],
    [new AccessError(403, "requires the admin role"), 403, { code: "forbidden", message: "requires the admin role" }],
    [new ControlError("branch", "is not a valid branch name", 400), 400, { code: "invalid", message: "Branch is not a valid branch name", field: "branch" }],
    [new ControlError("action", "cannot pause a loop that is stopped"), 409, { code: "conflict", message: "Action cannot pause a loop that is stopped", field: "action" }],
    [new PromptStateError("P1 is done"), 409, { code: "conflict", message: "P1 is done" }],
    [new NotConnectedError("acme/app has no GitHub connection: connect it in the project settings"), 409,
      { code: "not_connected", message: "acme/app has no GitHub connection: connect it in the project settings" }],
    [new EnvError(["ENCRYPTION_KEY is required"]), 500, { code: "misconfigured", message: "Invalid configuration: ENCRYPTION_KEY is required" }],
    [new DomainError(418, "teapot", "short and stout", "spout"), 418, { code: "teapot", message: "short and stout", field: "spout" }],
  ])("%s", async (err, status, error) => {
    expect(await answer(err)).toEqual({ status, body: { error } });
  });

  it("keeps our own failures' messages (paths, stderr) out of the answer", async () => {
    const err = new GitError("/srv/secret/repo", ["push"], 128, "fatal: token abc");
    expect(err).toBeInstanceOf(DomainError);
    expect(await answer(err)).toEqual({ status: 500, body: { error: { code: "internal", message: "internal error" } } });
    expect(await answer(new Error("boom at /srv"))).toEqual({ status: 500, body: { error: { code: "internal", message: "internal error" } } });
  });
});
