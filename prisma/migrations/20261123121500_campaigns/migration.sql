-- AlterEnum
ALTER TYPE "CampaignPhase" ADD VALUE 'cancelled';

-- AlterTable
ALTER TABLE "Campaign" DROP COLUMN "lastDriftCheckPct",
ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "failureLog" TEXT,
ADD COLUMN     "milestones" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "paused" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "phaseChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "planVersion" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tasksCompleted" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tasksFailed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tasksTotal" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "campaignPlan" INTEGER,
ADD COLUMN     "taskId" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "campaignId" TEXT;

-- CreateTable
CREATE TABLE "CampaignEvent" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "runId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CampaignEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CampaignEvent_runId_key" ON "CampaignEvent"("runId");

-- CreateIndex
CREATE INDEX "CampaignEvent_campaignId_createdAt_idx" ON "CampaignEvent"("campaignId", "createdAt");

-- CreateIndex
CREATE INDEX "Run_campaignId_idx" ON "Run"("campaignId");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CampaignEvent" ADD CONSTRAINT "CampaignEvent_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
