-- Kept quote inputs (src/modules/orders/quote-inputs.ts) hold the automatic promotions with their
-- `times_used`; an order's use does not move quote_version (0065). A cancelled order giving back the
-- last use of a used-up promotion does: else kept inputs would leave it out as used up until the
-- version moved for another reason. A stale count the other way is refused by the usage guard.
CREATE TRIGGER `promotions_bump_quote_use_given_back` AFTER UPDATE OF `times_used` ON `promotions`
WHEN NEW.`usage_limit` IS NOT NULL AND NEW.`times_used` < OLD.`times_used` AND OLD.`times_used` >= NEW.`usage_limit`
BEGIN
  UPDATE `quote_version` SET `version` = (random() & 9007199254740991) WHERE `id` = 1;
END;
