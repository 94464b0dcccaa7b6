-- A drift check whose run fails runs again (up to three runs for one milestone): the count of
-- failed runs in a row for the milestone being checked.
ALTER TABLE "Campaign" ADD COLUMN "driftFailures" INTEGER NOT NULL DEFAULT 0;
