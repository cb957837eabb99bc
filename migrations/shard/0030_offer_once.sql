-- A waiting party is offered a table once. Two changes that free tables at the same moment read
-- the same waiting parties before either commits; the second one's offer of the same party is not
-- written, and nor is an offer's email without its offer, and the change itself still commits
-- (RAISE(IGNORE) skips the row, not the batch). A property's rows copied between shards
-- (`copying`) go in as they are.
CREATE TRIGGER `waitlist_offers_once` BEFORE INSERT ON `waitlist_offers` FOR EACH ROW
WHEN EXISTS (SELECT 1 FROM `waitlist_offers` o WHERE o.`reservation_id` = NEW.`reservation_id`)
  AND NOT EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`copying` = 1)
BEGIN
  SELECT RAISE(IGNORE);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_offer_with_its_offer` BEFORE INSERT ON `messages` FOR EACH ROW
WHEN NEW.`template` = 'offer'
  AND NOT EXISTS (SELECT 1 FROM `waitlist_offers` o WHERE o.`reservation_id` = NEW.`reservation_id` AND o.`nonce` = json_extract(NEW.`snapshot`, '$.offer.nonce'))
  AND NOT EXISTS (SELECT 1 FROM `properties` p WHERE p.`id` = NEW.`property_id` AND p.`copying` = 1)
BEGIN
  SELECT RAISE(IGNORE);
END;
