-- Usernames compare case-insensitively and NFKC-normalised (worker/lib/username.ts).
-- Clients created before: SQL cannot normalise Unicode, so their key is the ASCII lower case of
-- the username; when two old usernames differ only by case, the oldest keeps the name and the
-- others get a key no new username can have (a control character and the row id): they stay
-- usable (clients sign in by client_id), their usernames just no longer block anyone.
UPDATE `api_clients` SET `username_key` = lower(`username`)
WHERE `username_key` IS NULL
  AND `id` = (SELECT min(a.`id`) FROM `api_clients` a WHERE lower(a.`username`) = lower(`api_clients`.`username`));
--> statement-breakpoint
UPDATE `api_clients` SET `username_key` = char(1) || `id` WHERE `username_key` IS NULL;
