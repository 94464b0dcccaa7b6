-- AlterTable
ALTER TABLE "AgentProfile" ADD COLUMN     "maxTurns" INTEGER;

-- AlterTable
ALTER TABLE "ProjectSettings" ADD COLUMN     "maxTurns" INTEGER;
