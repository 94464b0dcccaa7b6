-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "clis" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "sessionId" TEXT;

-- AlterTable
ALTER TABLE "SpendEntry" ADD COLUMN     "cacheWriteTokens" INTEGER NOT NULL DEFAULT 0;
