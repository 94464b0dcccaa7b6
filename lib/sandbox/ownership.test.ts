import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runIgnoringVanished, shareWithSandboxGroup } from "@/lib/sandbox/ownership";

// Our own group: changing a file to it needs no privilege, so the test runs as any user.
const user = { uid: process.getuid!(), gid: process.getgid!() };

describe("sharing a repository's folders with the sandbox group", () => {
  it("gives every file the group and group write, and every folder the setgid bit", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rm-share-"));
    await mkdir(join(dir, "objects", "ab"), { recursive: true });
    await writeFile(join(dir, "objects", "ab", "cdef"), "x", { mode: 0o444 });
    await shareWithSandboxGroup([dir, join(dir, "not-there")], user);
    expect((await stat(join(dir, "objects", "ab", "cdef"))).mode & 0o060).toBe(0o060);
    expect((await stat(join(dir, "objects", "ab"))).mode & 0o2070).toBe(0o2070);
    await rm(dir, { recursive: true, force: true });
  });

  it("takes a command whose only complaints are vanished files as done, and fails on any other", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rm-share-"));
    await expect(runIgnoringVanished("chgrp", ["-R", String(user.gid), dir, join(dir, "gone")])).resolves.toBeUndefined();
    await expect(runIgnoringVanished("chgrp", ["-R", "no-such-group-here", dir])).rejects.toThrow(/invalid group/);
    await expect(runIgnoringVanished("chgrp", ["-R", "no-such-group-here", dir, join(dir, "gone")])).rejects.toThrow(/invalid group/);
    await rm(dir, { recursive: true, force: true });
  });

  it("fails on a complaint other than a vanished file, after the other steps ran (an immutable file, as root)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rm-share-"));
    await mkdir(join(dir, "sub"));
    await writeFile(join(dir, "sub", "locked"), "x", { mode: 0o444 });
    const immutable = spawnSync("chattr", ["+i", join(dir, "sub", "locked")]).status === 0;
    try {
      if (!immutable) return; // chattr needs root and a file system with attributes: nothing to show here.
      await expect(shareWithSandboxGroup([dir], user)).rejects.toThrow(/locked.*Operation not permitted/);
      // The steps after the failed chgrp still ran: the folder got group write and the setgid bit.
      expect((await stat(join(dir, "sub"))).mode & 0o2070).toBe(0o2070);
    } finally {
      if (immutable) spawnSync("chattr", ["-i", join(dir, "sub", "locked")]);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("does not fail when another git process deletes files while it walks the folders", async () => {
    // Lock and temporary files come and go under objects/ while other runs commit and merge.
    const dir = await mkdtemp(join(tmpdir(), "rm-share-"));
    for (let round = 0; round < 3; round++) {
      const files = Array.from({ length: 1000 }, (_, i) => join(dir, `tmp_obj_${round}_${i}`));
      await Promise.all(files.map((f) => writeFile(f, "")));
      const deleting = Promise.all(files.map((f) => rm(f, { force: true })));
      await expect(shareWithSandboxGroup([dir], user)).resolves.toBeUndefined();
      await deleting;
    }
    await rm(dir, { recursive: true, force: true });
  }, 60_000);
});
