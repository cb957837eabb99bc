-- The per-guest limit of online bookings (settings.max_online_bookings_per_guest).
-- guest_booking_checks holds one guard row per online booking, inserted first in the booking's
-- batch and deleted at its end: the table is always empty between batches. Its rows are the
-- property's like any other, so a moving property refuses them (the freeze triggers below).
CREATE TRIGGER `guest_booking_checks_moving_insert` BEFORE INSERT ON `guest_booking_checks` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `guest_booking_checks_moving_update` BEFORE UPDATE ON `guest_booking_checks` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `guest_booking_checks_moving_delete` BEFORE DELETE ON `guest_booking_checks` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = OLD.`property_id` AND p.`shard_state` <> 'live' AND p.`copying` = 0)
BEGIN
  SELECT RAISE(ABORT, 'property_moving');
END;
--> statement-breakpoint
-- The guest's active future online bookings (waiting-list entries included) under the typed email
-- or the typed phone, counted in the very batch that would add one more: parallel bookings of one
-- guest cannot all see a count below the limit. Emails compare in lower case without a plus-tag
-- (Ada+1@example.com is ada@example.com), phones by their digits without leading zeros ("+39 055-1"
-- is "0039 0551"), and only phones of 6 digits or more, so junk numbers do not tie strangers.
-- Each reservation counts under the guest as typed on it (reservations.guest), or its
-- customer's details when it has none. The range is the index reservations_property_start_idx:
-- the property's reservations from now on.
CREATE TRIGGER `guest_booking_checks_limit`
BEFORE INSERT ON `guest_booking_checks`
FOR EACH ROW
WHEN NOT EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`copying` = 1)
AND (
  SELECT count(*)
  FROM `reservations` r
  LEFT JOIN `customers` c ON c.`id` = r.`customer_id`
  WHERE r.`property_id` = NEW.`property_id`
    AND r.`start_min` >= NEW.`now_min`
    AND r.`channel` IN ('PLATFORM_BOOK', 'SEARCHENGINE')
    AND r.`status` IN ('WAITING', 'PREPAY', 'ACCEPTED', 'CONFIRMED')
    AND r.`checkin_date` IS NULL
    AND (
      (NEW.`email` IS NOT NULL AND CASE WHEN instr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), '+') BETWEEN 1 AND instr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), '@') THEN substr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), 1, instr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), '+') - 1) || substr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), instr(lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END), '@')) ELSE lower(CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.email') ELSE c.`email` END) END = CASE WHEN instr(lower(NEW.`email`), '+') BETWEEN 1 AND instr(lower(NEW.`email`), '@') THEN substr(lower(NEW.`email`), 1, instr(lower(NEW.`email`), '+') - 1) || substr(lower(NEW.`email`), instr(lower(NEW.`email`), '@')) ELSE lower(NEW.`email`) END)
      OR (length(ltrim(replace(replace(replace(replace(replace(replace(replace(NEW.`phone`, ' ', ''), '(', ''), ')', ''), '.', ''), '-', ''), '/', ''), '+', ''), '0')) >= 6 AND ltrim(replace(replace(replace(replace(replace(replace(replace((CASE WHEN r.`guest` IS NOT NULL THEN json_extract(r.`guest`, '$.phone') ELSE c.`phone` END), ' ', ''), '(', ''), ')', ''), '.', ''), '-', ''), '/', ''), '+', ''), '0') = ltrim(replace(replace(replace(replace(replace(replace(replace(NEW.`phone`, ' ', ''), '(', ''), ')', ''), '.', ''), '-', ''), '/', ''), '+', ''), '0'))
    )
) >= NEW.`max_bookings`
BEGIN
  SELECT RAISE(ABORT, 'guest_booking_limit');
END;
