-- AlterTable
ALTER TABLE "ProjectSettings" ADD COLUMN     "egressPresets" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "egressRules" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "networkMode" TEXT NOT NULL DEFAULT 'allow-list',
ADD COLUMN     "unsandboxed" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "egress" JSONB;
