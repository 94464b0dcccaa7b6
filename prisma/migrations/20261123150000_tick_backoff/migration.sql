-- AlterTable
ALTER TABLE "LoopState" ADD COLUMN     "tickBackoff" INTEGER NOT NULL DEFAULT 0;
