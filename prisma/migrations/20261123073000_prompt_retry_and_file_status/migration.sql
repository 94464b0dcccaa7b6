-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "fileStatus" "PromptStatus",
ADD COLUMN     "retryAt" TIMESTAMP(3);
