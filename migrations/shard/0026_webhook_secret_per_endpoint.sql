-- One signing secret per endpoint: a client's live subscriptions of one property to the same
-- endpoint share the secret of the oldest of them. Each other one keeps its own as the previous
-- secret for 7 days (deliveries carry both signatures), so a receiver that holds it still verifies
-- while it switches to the shared one.
UPDATE webhook_subscriptions AS s
SET previous_secret = s.secret,
    previous_secret_expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+7 days'),
    secret = (
      SELECT o.secret FROM webhook_subscriptions AS o
      WHERE o.client_id = s.client_id AND o.property_id = s.property_id AND o.endpoint = s.endpoint AND o.deleted_at IS NULL
      ORDER BY o.id LIMIT 1
    ),
    updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE s.deleted_at IS NULL
  AND s.client_id <> 0
  AND s.secret <> (
    SELECT o.secret FROM webhook_subscriptions AS o
    WHERE o.client_id = s.client_id AND o.property_id = s.property_id AND o.endpoint = s.endpoint AND o.deleted_at IS NULL
    ORDER BY o.id LIMIT 1
  );
