// First start: a demo team, a login (printed once), and a demo project on a local git
// repository with a few prompts. Later starts find the team and change nothing.
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { getEnv } from "@/lib/env";
import { getDb, closeDb } from "@/lib/db";
import { closeQueues } from "@/lib/queues";
import { closeRedis } from "@/lib/redis/connections";
import { hashPassword } from "@/lib/auth/password";
import { createProject } from "@/lib/projects/create";
import { repoRoots } from "@/lib/projects/repo-path";
import { createDemoRepo } from "@/lib/demo/repo";
import { demoPrompts } from "@/lib/demo/prompts";

export const DEMO_EMAIL = "demo@ringmaster.local";

async function main() {
  const db = getDb();
  // Without the demo, the first person to open the app signs up and owns the first team.
  if (getEnv().SEED_DEMO === "off") return;
  const existing = await db.team.findUnique({ where: { slug: "demo" }, include: { projects: true } });
  if (existing) {
    // The demo repository lives in the first root of local repositories (by default the data
    // folder's repos/; older installs: the data folder); recreate it if that folder was wiped.
    for (const p of existing.projects) if (p.repoPath?.endsWith("demo-repo")) createDemoRepo(p.repoPath);
    return;
  }

  const password = getEnv().DEMO_PASSWORD ?? randomBytes(9).toString("base64url");
  const user = await db.user.create({
    data: { email: DEMO_EMAIL, name: "Demo Owner", passwordHash: await hashPassword(password) },
  });
  const team = await db.team.create({
    data: { name: "Demo team", slug: "demo", memberships: { create: { userId: user.id, role: "owner" } } },
  });
  const profile = await db.agentProfile.create({ data: { teamId: team.id, name: "Demo agent", adapter: "demo" } });
  const repoPath = createDemoRepo(resolve(repoRoots()[0], "demo-repo"));
  const project = await createProject(
    team.id,
    { name: "Demo app", repoKind: "local", repoPath, baseBranch: "main", executorProfileId: profile.id },
    { loopEnabled: true, maxParallel: 2 },
  );
  await db.prompt.createMany({
    data: demoPrompts.map((p) => ({ ...p, projectId: project.id, planningKey: project.planningKey })),
  });

  console.log("\n  Ringmaster demo is ready. Sign in with:");
  console.log(`    email:    ${DEMO_EMAIL}`);
  console.log(`    password: ${password}`);
  console.log("  (shown once; it is stored hashed)\n");
}

main()
  .then(async () => {
    await closeQueues();
    await closeRedis();
    await closeDb();
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
