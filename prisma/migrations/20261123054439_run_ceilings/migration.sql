-- AlterTable
ALTER TABLE "AgentProfile" ADD COLUMN     "maxCostUsd" DOUBLE PRECISION,
ADD COLUMN     "maxTokens" DOUBLE PRECISION,
ADD COLUMN     "maxToolCalls" INTEGER;

-- AlterTable
ALTER TABLE "ProjectSettings" ADD COLUMN     "loopFailureLimit" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "loopRepeatLimit" INTEGER NOT NULL DEFAULT 8,
ADD COLUMN     "maxCostUsd" DOUBLE PRECISION,
ADD COLUMN     "maxTokens" DOUBLE PRECISION,
ADD COLUMN     "maxToolCalls" INTEGER;
