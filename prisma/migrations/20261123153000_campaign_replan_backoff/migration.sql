-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "planAfter" TIMESTAMP(3),
ADD COLUMN     "replans" INTEGER NOT NULL DEFAULT 0;
