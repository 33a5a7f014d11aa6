-- An exchange (POST /api/returns/{id}/exchange) writes the new order and settles the return in one
-- batch that first asserts the return is still received and not exchanged: guard:return_settled.
DROP TRIGGER `write_guards_check`;--> statement-breakpoint
CREATE TRIGGER `write_guards_check` BEFORE INSERT ON `write_guards`
BEGIN
  SELECT RAISE(ABORT, 'guard:stale_quote') WHERE NEW.`name` = 'stale_quote' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:stale_credential') WHERE NEW.`name` = 'stale_credential' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:payment_settled') WHERE NEW.`name` = 'payment_settled' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:refund_settled') WHERE NEW.`name` = 'refund_settled' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'guard:return_settled') WHERE NEW.`name` = 'return_settled' AND NEW.`ok` IS NOT 1;
  SELECT RAISE(ABORT, 'write_guards: unknown guard') WHERE NEW.`ok` IS NOT 1;
  SELECT RAISE(IGNORE);
END;
