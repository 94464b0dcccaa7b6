-- AlterTable
ALTER TABLE "AgentProfile" ADD COLUMN     "permissionMode" TEXT;
