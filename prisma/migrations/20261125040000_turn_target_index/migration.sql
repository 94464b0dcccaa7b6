-- CreateIndex
CREATE INDEX "Turn_target_idx" ON "Turn"("target");
