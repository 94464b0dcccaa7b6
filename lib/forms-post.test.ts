import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// A form submitted before React has hydrated it is sent by the browser itself: without
// method="post" that is a GET, which puts every field (an agent credential, a token name, a
// webhook secret) into the URL, the history and the access logs. Server-action forms post anyway.

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? tsxFiles(path) : e.name.endsWith(".tsx") ? [path] : [];
  });
}

describe("forms in the app", () => {
  it("say how they are sent before hydration (method=\"post\", a server action, or an explicit get for a filter)", () => {
    const offenders = tsxFiles("app").flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/<form\b[^>]*>/g)]
        // An explicit method="get" (a filter) or "dialog" is a choice; a missing one is the accident.
        .filter((m) => !/\bmethod="/.test(m[0]) && !/\baction=\{/.test(m[0]))
        .map((m) => `${file}: ${m[0].slice(0, 80)}`));
    expect(offenders).toEqual([]);
  });
});
