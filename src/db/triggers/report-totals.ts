import { triggerShape } from './trigger-sql';

/**
 * The report totals (src/db/schema/reports.ts: sales by day, product sales by day and by month) are
 * kept by triggers on the writes they sum, inside the statements that make those writes: no job, no
 * lag, and a report reads a few rows per day or month (src/modules/reports/). This is every such
 * trigger, by the table whose writes it follows, with the totals it keeps; scripts/triggers.ts makes
 * the migrations from it (dropping one that bumps a totals table and is no longer here), and
 * test/d1/declared-triggers.test.ts checks the migrated database has each exactly as written here.
 */
export type ReportTotalsTable = 'sales_days' | 'product_sales_days' | 'product_sales_months';

export interface ReportTotalsTrigger {
  /** The write it follows and what it does to the totals. */
  why: string;
  keeps: readonly ReportTotalsTable[];
  /** The CREATE TRIGGER statement, a line per string. */
  sql: string;
}

const statement = (...lines: string[]) => lines.join('\n');

export const REPORT_TOTALS_TRIGGERS: Record<string, readonly ReportTotalsTrigger[]> = {
  orders: [
    {
      why: "A placed order counts on its day (its lines' units come with the lines, inserted after it in the same batch); a cancelled one never counts.",
      keeps: ['sales_days'],
      sql: statement(
        "CREATE TRIGGER `sales_order_placed` AFTER INSERT ON `orders` WHEN NEW.`status` != 'cancelled'",
        'BEGIN',
        '  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `orders`, `first_orders`, `first_order_sales`, `gross`, `discounts`, `shipping`, `tax`, `line_tax_included`, `sales`)',
        '  VALUES (substr(NEW.`created_at`, 1, 10), NEW.`currency`, NEW.`minor_units`, 1, NEW.`first_order`, CASE WHEN NEW.`first_order` THEN NEW.`total` ELSE 0 END,',
        '    NEW.`subtotal`, NEW.`discount_total`, NEW.`shipping_total`, NEW.`tax_total`, CASE WHEN NEW.`prices_include_tax` THEN NEW.`tax_total` - NEW.`shipping_tax` ELSE 0 END, NEW.`total`)',
        '  ON CONFLICT (`currency`, `day`) DO UPDATE SET `minor_units` = `excluded`.`minor_units`, `orders` = `orders` + 1, `first_orders` = `first_orders` + `excluded`.`first_orders`,',
        '    `first_order_sales` = `first_order_sales` + `excluded`.`first_order_sales`, `gross` = `gross` + `excluded`.`gross`, `discounts` = `discounts` + `excluded`.`discounts`,',
        '    `shipping` = `shipping` + `excluded`.`shipping`, `tax` = `tax` + `excluded`.`tax`, `line_tax_included` = `line_tax_included` + `excluded`.`line_tax_included`,',
        '    `sales` = `sales` + `excluded`.`sales`;',
        'END',
      ),
    },
    {
      why: "A cancelled order no longer counts, on the day it was placed; of its products' figures only what refunds have not already taken out.",
      keeps: ['sales_days', 'product_sales_days'],
      sql: statement(
        "CREATE TRIGGER `sales_order_cancelled` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'",
        'BEGIN',
        '  UPDATE `sales_days` SET `orders` = `orders` - 1, `first_orders` = `first_orders` - OLD.`first_order`,',
        '    `first_order_sales` = `first_order_sales` - CASE WHEN OLD.`first_order` THEN OLD.`total` ELSE 0 END,',
        '    `units` = `units` - (SELECT coalesce(sum(`quantity`), 0) FROM `order_lines` WHERE `order_id` = OLD.`id`),',
        '    `gross` = `gross` - OLD.`subtotal`, `discounts` = `discounts` - OLD.`discount_total`, `shipping` = `shipping` - OLD.`shipping_total`,',
        '    `tax` = `tax` - OLD.`tax_total`, `line_tax_included` = `line_tax_included` - CASE WHEN OLD.`prices_include_tax` THEN OLD.`tax_total` - OLD.`shipping_tax` ELSE 0 END,',
        '    `sales` = `sales` - OLD.`total`',
        '  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10);',
        '  UPDATE `product_sales_days` SET',
        '    `units` = `units` - (SELECT coalesce(sum(l.`quantity`), 0) - coalesce((SELECT sum(rl.`quantity`) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`',
        "      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_days`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_days`.`product_id`),",
        '    `revenue` = `revenue` - (SELECT coalesce(sum(l.`total` - l.`tax`), 0) - coalesce((SELECT sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`',
        "      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_days`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_days`.`product_id`),",
        '    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_days`.`product_id`)',
        '  WHERE `currency` = OLD.`currency` AND `day` = substr(OLD.`created_at`, 1, 10) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);',
        'END',
      ),
    },
    {
      why: 'As sales_order_cancelled, for the months.',
      keeps: ['product_sales_months'],
      sql: statement(
        "CREATE TRIGGER `sales_order_cancelled_month` AFTER UPDATE OF `status` ON `orders` WHEN NEW.`status` = 'cancelled' AND OLD.`status` != 'cancelled'",
        'BEGIN',
        '  UPDATE `product_sales_months` SET',
        '    `units` = `units` - (SELECT coalesce(sum(l.`quantity`), 0) - coalesce((SELECT sum(rl.`quantity`) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`',
        "      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_months`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_months`.`product_id`),",
        '    `revenue` = `revenue` - (SELECT coalesce(sum(l.`total` - l.`tax`), 0) - coalesce((SELECT sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END) FROM `refund_lines` rl JOIN `refunds` r ON r.`id` = rl.`refund_id` JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`',
        "      WHERE r.`order_id` = OLD.`id` AND r.`status` = 'completed' AND ol.`product_id` = `product_sales_months`.`product_id`), 0) FROM `order_lines` l WHERE l.`order_id` = OLD.`id` AND l.`product_id` = `product_sales_months`.`product_id`),",
        '    `lines` = `lines` - (SELECT count(*) FROM `order_lines` WHERE `order_id` = OLD.`id` AND `product_id` = `product_sales_months`.`product_id`)',
        '  WHERE `currency` = OLD.`currency` AND `month` = substr(OLD.`created_at`, 1, 7) AND `product_id` IN (SELECT `product_id` FROM `order_lines` WHERE `order_id` = OLD.`id`);',
        'END',
      ),
    },
  ],
  order_lines: [
    {
      why: "A line of a placed order: its units on the day, its product's units and revenue without tax.",
      keeps: ['sales_days', 'product_sales_days'],
      sql: statement(
        'CREATE TRIGGER `sales_line_placed` AFTER INSERT ON `order_lines`',
        'BEGIN',
        '  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `units`)',
        "  SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, `o`.`minor_units`, NEW.`quantity` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'",
        '  ON CONFLICT (`currency`, `day`) DO UPDATE SET `units` = `units` + `excluded`.`units`;',
        '  INSERT INTO `product_sales_days` (`day`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)',
        "  SELECT substr(`o`.`created_at`, 1, 10), `o`.`currency`, NEW.`product_id`, NEW.`name`, NEW.`quantity`, NEW.`total` - NEW.`tax`, 1 FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'",
        '  ON CONFLICT (`currency`, `day`, `product_id`) DO UPDATE SET `name` = `excluded`.`name`, `units` = `units` + `excluded`.`units`, `revenue` = `revenue` + `excluded`.`revenue`, `lines` = `lines` + 1;',
        'END',
      ),
    },
    {
      why: 'As sales_line_placed, for the months.',
      keeps: ['product_sales_months'],
      sql: statement(
        'CREATE TRIGGER `sales_line_placed_month` AFTER INSERT ON `order_lines`',
        'BEGIN',
        '  INSERT INTO `product_sales_months` (`month`, `currency`, `product_id`, `name`, `units`, `revenue`, `lines`)',
        "  SELECT substr(`o`.`created_at`, 1, 7), `o`.`currency`, NEW.`product_id`, NEW.`name`, NEW.`quantity`, NEW.`total` - NEW.`tax`, 1 FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id` AND `o`.`status` != 'cancelled'",
        '  ON CONFLICT (`currency`, `month`, `product_id`) DO UPDATE SET `name` = `excluded`.`name`, `units` = `units` + `excluded`.`units`, `revenue` = `revenue` + `excluded`.`revenue`, `lines` = `lines` + 1;',
        'END',
      ),
    },
  ],
  refunds: [
    {
      why: 'A refund written completed counts on the day it completed.',
      keeps: ['sales_days'],
      sql: statement(
        "CREATE TRIGGER `sales_refund_written` AFTER INSERT ON `refunds` WHEN NEW.`status` = 'completed'",
        'BEGIN',
        '  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `refunds`)',
        '  SELECT substr(NEW.`updated_at`, 1, 10), NEW.`currency`, `o`.`minor_units`, NEW.`amount` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id`',
        '  ON CONFLICT (`currency`, `day`) DO UPDATE SET `refunds` = `refunds` + `excluded`.`refunds`;',
        'END',
      ),
    },
    {
      why: 'A refund moved from pending to completed counts on the day it completed.',
      keeps: ['sales_days'],
      sql: statement(
        "CREATE TRIGGER `sales_refund_completed` AFTER UPDATE OF `status` ON `refunds` WHEN NEW.`status` = 'completed' AND OLD.`status` != 'completed'",
        'BEGIN',
        '  INSERT INTO `sales_days` (`day`, `currency`, `minor_units`, `refunds`)',
        '  SELECT substr(NEW.`updated_at`, 1, 10), NEW.`currency`, `o`.`minor_units`, NEW.`amount` FROM `orders` AS `o` WHERE `o`.`id` = NEW.`order_id`',
        '  ON CONFLICT (`currency`, `day`) DO UPDATE SET `refunds` = `refunds` + `excluded`.`refunds`;',
        'END',
      ),
    },
    {
      why: "A completed refund's lines take their units and their revenue without tax (the refunded amount's share net of tax, half-up) out of the day and month the order was placed.",
      keeps: ['product_sales_days', 'product_sales_months'],
      sql: statement(
        'CREATE TRIGGER `product_sales_refunded` AFTER UPDATE OF `status` ON `refunds`',
        "WHEN NEW.`status` = 'completed' AND OLD.`status` != 'completed'",
        'BEGIN',
        '  UPDATE `product_sales_days` SET',
        '    `units` = `units` - (SELECT coalesce(sum(rl.`quantity`), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`',
        '      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_days`.`product_id`),',
        '    `revenue` = `revenue` - (SELECT coalesce(sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`',
        '      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_days`.`product_id`)',
        "  WHERE `currency` = NEW.`currency` AND `day` = (SELECT substr(`created_at`, 1, 10) FROM `orders` WHERE `id` = NEW.`order_id` AND `status` != 'cancelled')",
        '    AND `product_id` IN (SELECT ol.`product_id` FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id` WHERE rl.`refund_id` = NEW.`id`);',
        '  UPDATE `product_sales_months` SET',
        '    `units` = `units` - (SELECT coalesce(sum(rl.`quantity`), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`',
        '      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_months`.`product_id`),',
        '    `revenue` = `revenue` - (SELECT coalesce(sum(CASE WHEN ol.`total` = 0 THEN 0 ELSE (rl.`amount` * (ol.`total` - ol.`tax`) * 2 + ol.`total`) / (2 * ol.`total`) END), 0) FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id`',
        '      WHERE rl.`refund_id` = NEW.`id` AND ol.`product_id` = `product_sales_months`.`product_id`)',
        "  WHERE `currency` = NEW.`currency` AND `month` = (SELECT substr(`created_at`, 1, 7) FROM `orders` WHERE `id` = NEW.`order_id` AND `status` != 'cancelled')",
        '    AND `product_id` IN (SELECT ol.`product_id` FROM `refund_lines` rl JOIN `order_lines` ol ON ol.`id` = rl.`order_line_id` WHERE rl.`refund_id` = NEW.`id`);',
        'END',
      ),
    },
  ],
};

/** Whether a trigger (as a migration left it) writes report totals: the generator drops those no longer declared. */
export const keepsReportTotals = (sql: string) => /(INSERT\s+INTO|UPDATE)\s+`?(sales_days|product_sales_days|product_sales_months)`?/i.test(sql);

/** The report totals triggers, by name; each checked to be on the table it is declared under. */
export function reportTotalsTriggers(declared: Record<string, readonly ReportTotalsTrigger[]> = REPORT_TOTALS_TRIGGERS): Map<string, string> {
  const triggers = new Map<string, string>();
  for (const [table, list] of Object.entries(declared)) {
    for (const { sql } of list) {
      const shape = triggerShape(sql);
      if (shape.table !== table) throw new Error(`${shape.name} is declared under ${table} but is on ${shape.table}`);
      if (triggers.has(shape.name)) throw new Error(`two report totals triggers are named ${shape.name}`);
      triggers.set(shape.name, sql);
    }
  }
  return triggers;
}
