export const KIND_LABELS = { prompt_run: "Run a prompt", pr_merge: "Merge a pull request", fix_cycle_cap: "Another review-fix cycle past the cap" } as const;
