-- AlterTable
ALTER TABLE "AgentProfile" ADD COLUMN     "maxRunDurationMs" INTEGER;

-- AlterTable
ALTER TABLE "ProjectSettings" ALTER COLUMN "maxRunDurationMs" DROP NOT NULL,
ALTER COLUMN "maxRunDurationMs" DROP DEFAULT;

-- Projects left on the old default now take their profile's wall time (45 minutes when it has none).
UPDATE "ProjectSettings" SET "maxRunDurationMs" = NULL WHERE "maxRunDurationMs" = 2700000;
