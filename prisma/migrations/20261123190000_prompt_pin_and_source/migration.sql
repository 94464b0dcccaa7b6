-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "pinnedAgentId" TEXT,
ADD COLUMN     "sourceUrl" TEXT;

-- CreateIndex
CREATE INDEX "Prompt_pinnedAgentId_idx" ON "Prompt"("pinnedAgentId");

-- AddForeignKey
ALTER TABLE "Prompt" ADD CONSTRAINT "Prompt_pinnedAgentId_fkey" FOREIGN KEY ("pinnedAgentId") REFERENCES "Agent"("id") ON DELETE SET NULL ON UPDATE CASCADE;
