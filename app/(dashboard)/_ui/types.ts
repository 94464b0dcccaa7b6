// Shapes of the JSON the dashboard reads (dates arrive as strings).
export interface PromptRow {
  id: string; number: number; title: string; body: string; status: "pending" | "in_progress" | "done" | "failed" | "cancelled";
  priority: number; dependencies: number[]; attempts: number; maxAttempts: number; origin: string; approval: string;
  failureLog: string | null; updatedAt: string;
}

export interface RunRow {
  id: string; kind: string; status: string; attempt: number; adapter: string; model: string | null; promptId: string | null;
  queuedAt: string; startedAt: string | null; finishedAt: string | null; leaseExpiresAt: string | null; heartbeatAt: string | null;
  exitCode: number | null; branch: string | null; mergeStatus: string | null; costUsd: number | null; workerId: string | null;
  prompt: { number: number; title: string } | null;
}

export interface ActivityRow { id: string; type: string; message: string; createdAt: string }
