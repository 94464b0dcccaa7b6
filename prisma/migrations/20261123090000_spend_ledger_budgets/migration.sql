-- AlterTable
ALTER TABLE "LoopState" ADD COLUMN     "pauseReason" TEXT;

-- AlterTable
ALTER TABLE "ProjectSettings" ADD COLUMN     "budgetStopsRuns" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "dailyBudgetUsd" DOUBLE PRECISION,
ADD COLUMN     "monthlyBudgetUsd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "reservedUsd" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "dailyBudgetUsd" DOUBLE PRECISION,
ADD COLUMN     "monthlyBudgetUsd" DOUBLE PRECISION;

-- CreateTable
CREATE TABLE "SpendEntry" (
    "id" BIGSERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "model" TEXT,
    "agentProfileId" TEXT,
    "queuedById" TEXT,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "cachedTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpendEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BudgetEvent" (
    "id" BIGSERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "periodStart" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "byUserId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BudgetEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SpendEntry_teamId_createdAt_idx" ON "SpendEntry"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "SpendEntry_projectId_createdAt_idx" ON "SpendEntry"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SpendEntry_runId_key_key" ON "SpendEntry"("runId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "BudgetEvent_teamId_scope_period_periodStart_kind_key" ON "BudgetEvent"("teamId", "scope", "period", "periodStart", "kind");

-- AddForeignKey
ALTER TABLE "SpendEntry" ADD CONSTRAINT "SpendEntry_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpendEntry" ADD CONSTRAINT "SpendEntry_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SpendEntry" ADD CONSTRAINT "SpendEntry_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BudgetEvent" ADD CONSTRAINT "BudgetEvent_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
