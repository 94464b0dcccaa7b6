-- OAuth tokens from earlier sign-ins are not needed (nothing calls a provider as the person) and are no longer stored.
UPDATE "Account" SET "access_token" = NULL, "refresh_token" = NULL, "id_token" = NULL, "session_state" = NULL;
