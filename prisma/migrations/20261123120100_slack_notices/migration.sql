-- AlterTable
ALTER TABLE "SlackWork" ADD COLUMN     "noticeKey" TEXT,
ADD COLUMN     "notices" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "SlackWork_notices_idx" ON "SlackWork"("notices");
