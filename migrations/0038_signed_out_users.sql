-- Users who signed out before tokens carried their generation: the tokens they held then carry none (generation
-- 0) and must stay refused, so they start at generation 1 and sign in again.
UPDATE users SET token_generation = 1 WHERE tokens_revoked_through IS NOT NULL;
