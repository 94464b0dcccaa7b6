-- DropIndex
DROP INDEX "Thread_promptId_idx";

-- AlterTable
ALTER TABLE "Turn" ADD COLUMN     "target" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Thread_promptId_key" ON "Thread"("promptId");
