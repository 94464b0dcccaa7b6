-- AlterTable
ALTER TABLE "Prompt" ADD COLUMN     "retryAt" TIMESTAMP(3);
