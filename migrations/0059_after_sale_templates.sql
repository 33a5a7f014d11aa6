-- The after-sale default templates (src/notifications/defaults.ts; test/notifications/templates.test.ts checks they agree).
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_refund_issued_email', 'refund_issued', 'email', 'payment.refunded', 'customer', 'transactional', 'To the customer when a refund of their order completes.', '{{storeName}}: refund for order {{orderNumber}}', 'Hello {{customerName}},

we have refunded {{amount}} for order {{orderNumber}} to {{destination}} (refund {{refundId}}).

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>we have refunded <strong>{{amount}}</strong> for order {{orderNumber}} to {{destination}} (refund {{refundId}}).</p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_return_approved_email', 'return_approved', 'email', 'return.approved', 'customer', 'transactional', 'To the customer when the store approves their return.', '{{storeName}}: your return for order {{orderNumber}} is approved', 'Hello {{customerName}},

your return {{returnId}} for order {{orderNumber}} is approved. Please send us:

{{returnItems}}

{{resolution}}

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>your return {{returnId}} for order <strong>{{orderNumber}}</strong> is approved. Please send us:</p>
<p><pre>{{returnItems}}</pre></p>
<p>{{resolution}}</p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_return_rejected_email', 'return_rejected', 'email', 'return.rejected', 'customer', 'transactional', 'To the customer when the store rejects their return, with its reason.', '{{storeName}}: your return for order {{orderNumber}} was not accepted', 'Hello {{customerName}},

we could not accept your return {{returnId}} for order {{orderNumber}}:

{{returnItems}}

{{resolution}}

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>we could not accept your return {{returnId}} for order <strong>{{orderNumber}}</strong>:</p>
<p><pre>{{returnItems}}</pre></p>
<p>{{resolution}}</p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_return_received_email', 'return_received', 'email', 'return.received', 'customer', 'transactional', 'To the customer when the store receives their return.', '{{storeName}}: we received your return for order {{orderNumber}}', 'Hello {{customerName}},

we have received your return {{returnId}} for order {{orderNumber}}:

{{returnItems}}

We will let you know when it is refunded.

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>we have received your return {{returnId}} for order <strong>{{orderNumber}}</strong>:</p>
<p><pre>{{returnItems}}</pre></p>
<p>We will let you know when it is refunded.</p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_gift_card_received_email', 'gift_card_received', 'email', 'gift_card.issued', 'customer', 'transactional', 'To a gift card''s recipient (only a card with a recipientEmail), with its code.', '{{storeName}}: you received a gift card', 'Hello {{recipientName}},

you received a {{storeName}} gift card worth {{amount}}.

Your code: {{code}}

Enter it at checkout. Expires: {{expiresAt}}.

{{storeName}}', '<p>Hello {{recipientName}},</p>
<p>you received a <strong>{{storeName}}</strong> gift card worth <strong>{{amount}}</strong>.</p>
<p>Your code: <strong>{{code}}</strong></p>
<p>Enter it at checkout. Expires: {{expiresAt}}.</p>
<p>{{storeName}}</p>', 1);
