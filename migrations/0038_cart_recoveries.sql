CREATE TABLE `cart_recoveries` (
	`id` text PRIMARY KEY NOT NULL,
	`cart_id` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`cart_id`) REFERENCES `carts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `cart_recoveries_cart_idx` ON `cart_recoveries` (`cart_id`);--> statement-breakpoint
-- The cart reminder's default template (src/notifications/defaults.ts; test/notifications/templates.test.ts checks they agree).
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_cart_reminder_email', 'cart_reminder', 'email', 'cart.abandoned', 'customer', 'marketing', 'To a customer who left a cart (once per cart; never to guests or to those who opted out of marketing email).', '{{storeName}}: your cart is waiting', 'Hello {{customerName}},

you left these in your cart:

{{items}}

Pick up where you left off: {{recoveryUrl}}

The link works once, for {{expiresInDays}} days.

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>you left these in your cart:</p>
<p><pre>{{items}}</pre></p>
<p><a href="{{recoveryUrl}}">Pick up where you left off</a></p>
<p>The link works once, for {{expiresInDays}} days.</p>
<p>{{storeName}}</p>', 1);
