-- CreateTable
CREATE TABLE "SlackConnection" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "workspaceName" TEXT,
    "botUserId" TEXT NOT NULL,
    "encryptedBotToken" TEXT NOT NULL,
    "encryptedSigningSecret" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SlackConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SlackChannel" (
    "id" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SlackChannel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SlackThread" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "threadTs" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SlackThread_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SlackWork" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "messageTs" TEXT NOT NULL,
    "threadTs" TEXT NOT NULL,
    "slackUserId" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "agentId" TEXT,
    "projectId" TEXT NOT NULL,
    "promptId" TEXT,
    "threadId" TEXT,
    "repliedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SlackWork_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SlackConnection_teamId_key" ON "SlackConnection"("teamId");

-- CreateIndex
CREATE INDEX "SlackConnection_workspaceId_idx" ON "SlackConnection"("workspaceId");

-- CreateIndex
CREATE UNIQUE INDEX "SlackChannel_connectionId_channelId_key" ON "SlackChannel"("connectionId", "channelId");

-- CreateIndex
CREATE UNIQUE INDEX "SlackThread_teamId_channelId_threadTs_key" ON "SlackThread"("teamId", "channelId", "threadTs");

-- CreateIndex
CREATE INDEX "SlackWork_teamId_channelId_threadTs_idx" ON "SlackWork"("teamId", "channelId", "threadTs");

-- CreateIndex
CREATE INDEX "SlackWork_teamId_slackUserId_createdAt_idx" ON "SlackWork"("teamId", "slackUserId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SlackWork_teamId_channelId_messageTs_target_key" ON "SlackWork"("teamId", "channelId", "messageTs", "target");

-- AddForeignKey
ALTER TABLE "SlackConnection" ADD CONSTRAINT "SlackConnection_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SlackChannel" ADD CONSTRAINT "SlackChannel_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "SlackConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SlackChannel" ADD CONSTRAINT "SlackChannel_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
