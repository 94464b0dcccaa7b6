-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "fileStatus" "PromptStatus",
ADD COLUMN     "retryAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "worktreeGoneAt" TIMESTAMP(3);
