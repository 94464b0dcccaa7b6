-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "leadNotifiedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Turn" ADD COLUMN     "mentionReadAt" TIMESTAMP(3),
ADD COLUMN     "mentionsAgentId" TEXT;

-- CreateIndex
CREATE INDEX "Turn_mentionsAgentId_mentionReadAt_idx" ON "Turn"("mentionsAgentId", "mentionReadAt");
