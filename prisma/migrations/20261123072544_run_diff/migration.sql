-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "discardedAt" TIMESTAMP(3),
ADD COLUMN     "mergedSha" TEXT;

-- CreateTable
CREATE TABLE "RunDiff" (
    "runId" TEXT NOT NULL,
    "baseSha" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "files" JSONB NOT NULL,
    "patch" TEXT NOT NULL,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunDiff_pkey" PRIMARY KEY ("runId")
);

-- AddForeignKey
ALTER TABLE "RunDiff" ADD CONSTRAINT "RunDiff_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
