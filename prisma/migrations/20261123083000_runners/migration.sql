-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "maxConcurrent" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "projectId" TEXT,
ADD COLUMN     "tokenId" TEXT;

-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'api';

-- AlterTable
ALTER TABLE "ProjectSettings" ADD COLUMN     "useRunners" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "remote" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Agent_teamId_status_idx" ON "Agent"("teamId", "status");

-- CreateIndex
CREATE INDEX "Run_remoteAgentId_status_idx" ON "Run"("remoteAgentId", "status");
