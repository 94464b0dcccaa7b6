-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "threadId" TEXT,
ADD COLUMN     "threadSeq" INTEGER;

-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "idleRunAt" TIMESTAMP(3),
ADD COLUMN     "lastProcessedAt" TIMESTAMP(3),
ADD COLUMN     "receiptsSince" TIMESTAMP(3);

-- Threads that exist now predate read receipts (NULL, migrated once at start-up); new ones have them.
ALTER TABLE "Thread" ALTER COLUMN "receiptsSince" SET DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "Run_threadId_status_idx" ON "Run"("threadId", "status");

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE SET NULL ON UPDATE CASCADE;
