-- AlterTable
ALTER TABLE "GithubConnection" ADD COLUMN     "mentionLogin" TEXT;

-- CreateTable
CREATE TABLE "GithubWork" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "agentId" TEXT,
    "promptId" TEXT,
    "threadId" TEXT,
    "fullName" TEXT NOT NULL,
    "issueNumber" INTEGER NOT NULL,
    "githubUser" TEXT NOT NULL,
    "repliedAt" TIMESTAMP(3),
    "notices" BOOLEAN NOT NULL DEFAULT false,
    "noticeKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GithubWork_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "GithubWork_projectId_issueNumber_idx" ON "GithubWork"("projectId", "issueNumber");

-- CreateIndex
CREATE INDEX "GithubWork_notices_idx" ON "GithubWork"("notices");

-- CreateIndex
CREATE UNIQUE INDEX "GithubWork_projectId_source_target_key" ON "GithubWork"("projectId", "source", "target");
