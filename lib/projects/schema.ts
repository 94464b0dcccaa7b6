import { z } from "zod";
import { branchNameField } from "@/lib/git/ref-name";

// One schema shared by the form and the route handler.
export const projectInput = z
  .object({
    name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
    repoKind: z.enum(["local", "github"]),
    repoPath: z.string().trim().optional(),
    githubOwner: z.string().trim().regex(/^[A-Za-z0-9-]+$/, "is not a GitHub owner name").optional(),
    githubRepo: z.string().trim().regex(/^[A-Za-z0-9._-]+$/, "is not a GitHub repository name").optional(),
    baseBranch: branchNameField.default("main"),
    executorProfileId: z.string().optional(),
    plannerProfileId: z.string().optional(),
    // The folder is empty and the person asked for a new repository there.
    initRepository: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.repoKind === "local" && !v.repoPath?.startsWith("/")) {
      ctx.addIssue({ code: "custom", path: ["repoPath"], message: "must be an absolute path to a git repository" });
    }
    if (v.repoKind === "github" && (!v.githubOwner || !v.githubRepo)) {
      ctx.addIssue({ code: "custom", path: [v.githubOwner ? "githubRepo" : "githubOwner"], message: "is required for a GitHub project" });
    }
  });

export type ProjectInput = z.input<typeof projectInput>;
