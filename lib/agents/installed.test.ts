import { chmod, mkdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectClis, missingCli, whichOn } from "@/lib/agents/installed";
import { tempDir } from "@/lib/agents/testing";

async function binWith(name: string, script: string): Promise<string> {
  const dir = join(await tempDir(), "bin");
  await mkdir(dir);
  await writeFile(join(dir, name), script);
  await chmod(join(dir, name), 0o755);
  return dir;
}

describe("installed agent CLIs", () => {
  it("finds a command on PATH as the kernel would, an executable file only", async () => {
    const bin = await binWith("qwen", "#!/bin/sh\necho 0.24.4\n");
    await writeFile(join(bin, "pi"), "not executable");
    expect(whichOn("qwen", `/no/such/dir:${bin}`)).toBe(join(bin, "qwen"));
    expect(whichOn("pi", bin)).toBeNull();
  });

  it("says which CLI is missing and how to install it, instead of spawn ENOENT", () => {
    expect(missingCli("opencode", "opencode", "/no/such/dir", "build-7")).toBe(
      "CLI `opencode` not installed on build-7: the opencode adapter runs it, and it is not on PATH /no/such/dir; install it with `npm install -g opencode-ai`, or choose another adapter in the profile",
    );
    expect(missingCli("opencode", "opencode", "/no/such/dir")).toMatch(new RegExp(`^CLI \`opencode\` not installed on ${hostname()}: `));
    expect(missingCli("demo", "sh", "/usr/bin:/bin")).toBeNull();
  });

  it("reports each adapter's CLI with its path and the first line of its --version", async () => {
    const bin = await binWith("qwen", "#!/bin/sh\nprintf '0.24.4\\nmore\\n'\n");
    const found = await detectClis(`${bin}:/usr/bin:/bin`);
    expect(found.find((c) => c.adapter === "qwen")).toEqual({ adapter: "qwen", command: "qwen", path: join(bin, "qwen"), version: "0.24.4", install: "npm install -g @qwen-code/qwen-code" });
    expect(found.find((c) => c.adapter === "copilot")).toMatchObject({ path: null, version: null });
  });
});
