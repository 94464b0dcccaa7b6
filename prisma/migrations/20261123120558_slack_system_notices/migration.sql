-- AlterTable
ALTER TABLE "Turn" ADD COLUMN     "slackSentAt" TIMESTAMP(3);
