import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "@/lib/log";

describe("the logger", () => {
  it("censors secrets wherever they sit in a log line", () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(chunk.toString()); done(); } });
    const log = createLogger("info", sink).child({ name: "t" });
    log.info({ token: "rm_run_abc", user: { password: "hunter2" }, req: { headers: { authorization: "Bearer rm_api_x", cookie: "s=1" } }, env: { GITHUB_TOKEN: "ghp_x" } }, "hello");
    const out = lines.join("");
    for (const secret of ["rm_run_abc", "hunter2", "rm_api_x", "s=1", "ghp_x"]) expect(out).not.toContain(secret);
    expect(out).toContain("[redacted]");
    expect(JSON.parse(out).msg).toBe("hello");
  });
});
