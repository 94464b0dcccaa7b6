import { describe, expect, it } from "vitest";
import { buildRepoMap, repoMapRatio } from "@/lib/campaigns/repo-map";
import { PUBLIC_REPOSITORY, publicRepository } from "./helpers/public-repository";

// The architect's repo map, measured on a real public code base (not ours): the file tree and the
// top-level signatures stay within 10 % of the source's bytes, and no function body gets in.
describe("the repo map of a public repository", () => {
  it(`${PUBLIC_REPOSITORY.package}@${PUBLIC_REPOSITORY.version} ${PUBLIC_REPOSITORY.tree}/ maps to at most 10 % of its bytes`, async (ctx) => {
    const repo = publicRepository();
    if ("skipped" in repo) {
      console.log(`skipped: ${repo.skipped}`);
      ctx.skip();
      return;
    }
    const map = await buildRepoMap(repo.path);
    const ratio = repoMapRatio(map);
    console.log(`repo map of ${PUBLIC_REPOSITORY.package}@${PUBLIC_REPOSITORY.version} ${PUBLIC_REPOSITORY.tree}/: ${Buffer.byteLength(map.text)} of ${map.sourceBytes} bytes (${(ratio * 100).toFixed(1)} %)`);
    expect(map.sourceBytes).toBeGreaterThan(1_000_000);
    expect(ratio).toBeGreaterThan(0.005);
    expect(ratio).toBeLessThanOrEqual(0.1);
    // Real signatures from the real parser, and no bodies.
    expect(map.text).toMatch(/^v4\/core\/core\.ts\n(  .+\n)+/m);
    expect(map.text).toMatch(/^  export function \$constructor</m);
    expect(map.text).not.toMatch(/^\s+return /m);
  });
});
