import { spawnSync } from "node:child_process";
import { chmod, chown, lstat, mkdir, mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runIgnoringVanished, shareFolder, sharedAlready, shareWithSandboxGroup } from "@/lib/sandbox/ownership";

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

// A sandbox user that is not us (changing a file's group or owner to it needs root).
const sandboxUser = process.getuid!() === 0 ? { uid: 4242, gid: 4242 } : null;

describe.skipIf(!sandboxUser)("looking whether a repository's folders are shared already, without a process", () => {
  const user = sandboxUser!;
  async function shared() {
    const dir = await mkdtemp(join(tmpdir(), "rm-shared-"));
    await mkdir(join(dir, "objects", "ab"), { recursive: true });
    await writeFile(join(dir, "objects", "ab", "cdef"), "x", { mode: 0o444 });
    await mkdir(join(dir, "logs", "refs", "heads"), { recursive: true });
    await writeFile(join(dir, "logs", "refs", "heads", "main"), "x\n");
    await shareWithSandboxGroup([dir], user);
    return { dir, objects: join(dir, "objects"), logs: join(dir, "logs") };
  }

  it("says yes once shared, and no for each thing a share would still change", async () => {
    const { dir, objects, logs } = await shared();
    expect(await sharedAlready([objects], [logs], user)).toBe(true);
    // An object our git wrote since, read-only but the group's (its folder is setgid): still yes.
    await writeFile(join(objects, "ab", "0123"), "x", { mode: 0o444 });
    expect(await sharedAlready([objects], [logs], user)).toBe(true);
    // A folder made by a git that is not told to share (0755): no.
    await mkdir(join(objects, "cd"));
    expect(await sharedAlready([objects], [logs], user)).toBe(false);
    await shareWithSandboxGroup([objects], user);
    expect(await sharedAlready([objects], [logs], user)).toBe(true);
    // A reflog the group cannot append to: no; an object file the group cannot read: no.
    await writeFile(join(logs, "refs", "heads", "other"), "x\n", { mode: 0o644 });
    expect(await sharedAlready([objects], [logs], user)).toBe(false);
    await shareWithSandboxGroup([logs], user);
    await writeFile(join(objects, "ab", "4567"), "x", { mode: 0o400 });
    expect(await sharedAlready([objects], [logs], user)).toBe(false);
    await chmod(join(objects, "ab", "4567"), 0o444);
    expect(await sharedAlready([objects], [logs], user)).toBe(true);
    // Another group's file: no. A folder without the setgid bit: no.
    await chown(join(objects, "ab", "4567"), 0, 0);
    expect(await sharedAlready([objects], [logs], user)).toBe(false);
    await chown(join(objects, "ab", "4567"), 0, user.gid);
    await chmod(join(objects, "ab"), 0o775);
    expect(await sharedAlready([objects], [logs], user)).toBe(false);
    await chmod(join(objects, "ab"), 0o2775);
    // A link (an agent's, say): no, whatever it points at; a missing path: no.
    await symlink("/etc", join(objects, "ef"));
    expect(await sharedAlready([objects], [logs], user)).toBe(false);
    await rm(join(objects, "ef"));
    expect(await sharedAlready([objects, join(dir, "gone")], [logs], user)).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });

  it("takes what the sandbox user made itself as its own: readable and writable by it as owner", async () => {
    const { dir, objects, logs } = await shared();
    // A folder and a reflog an agent's git made (its umask: 0755 and 0644; the folder setgid by inheritance).
    await mkdir(join(objects, "99"));
    await chown(join(objects, "99"), user.uid, user.gid);
    await chmod(join(objects, "99"), 0o2755);
    await writeFile(join(logs, "refs", "heads", "agent"), "x\n", { mode: 0o644 });
    await chown(join(logs, "refs", "heads", "agent"), user.uid, user.gid);
    expect(await sharedAlready([objects], [logs], user)).toBe(true);
    // Root's 0644 reflog is not the sandbox user's to append to.
    await chown(join(logs, "refs", "heads", "agent"), 0, user.gid);
    expect(await sharedAlready([objects], [logs], user)).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });

  it("shares one folder by its handle, and refuses a link in its place without touching what it names", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rm-shared-"));
    await mkdir(join(dir, "refs"), { mode: 0o755 });
    shareFolder(join(dir, "refs"), user);
    const st = await stat(join(dir, "refs"));
    expect([st.gid, (st.mode & 0o7777).toString(8)]).toEqual([user.gid, "2775"]);
    const target = join(dir, "target");
    await mkdir(target, { mode: 0o755 });
    await symlink(target, join(dir, "link"));
    expect(() => shareFolder(join(dir, "link"), user)).toThrow(/ELOOP|ENOTDIR/);
    const after = await lstat(target);
    expect([after.gid, (after.mode & 0o7777).toString(8)]).toEqual([0, "755"]);
    await rm(dir, { recursive: true, force: true });
  });
});
