-- The default notification templates (src/notifications/defaults.ts; test/notifications/templates.test.ts checks they agree).
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_order_confirmation_email', 'order_confirmation', 'email', 'order.placed', 'customer', 'transactional', 'To the customer when an order is placed.', '{{storeName}}: order {{orderId}} confirmed', 'Hello {{customerName}},

thank you for your order {{orderId}}. We have received it and will let you know when it ships.

{{items}}

Subtotal: {{subtotal}}
Discount: {{discountTotal}}
Shipping: {{shippingTotal}}
Tax: {{taxTotal}}
Total: {{total}}

Shipping to: {{shippingAddress}}

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>thank you for your order <strong>{{orderId}}</strong>. We have received it and will let you know when it ships.</p>
<p><pre>{{items}}</pre></p>
<p>Subtotal: {{subtotal}}<br>Discount: {{discountTotal}}<br>Shipping: {{shippingTotal}}<br>Tax: {{taxTotal}}<br><strong>Total: {{total}}</strong></p>
<p>Shipping to: {{shippingAddress}}</p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_payment_receipt_email', 'payment_receipt', 'email', 'payment.completed', 'customer', 'transactional', 'To the customer when a payment succeeds.', '{{storeName}}: receipt for order {{orderId}}', 'Hello {{customerName}},

we have received your payment of {{amount}} for order {{orderId}} (payment {{paymentId}}).

Order total: {{total}}. Paid so far: {{amountPaid}}.

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>we have received your payment of <strong>{{amount}}</strong> for order {{orderId}} (payment {{paymentId}}).</p>
<p>Order total: {{total}}. Paid so far: {{amountPaid}}.</p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_shipment_shipped_email', 'shipment_shipped', 'email', 'shipment.shipped', 'customer', 'transactional', 'To the customer when a shipment of the order leaves, with its tracking.', '{{storeName}}: order {{orderId}} has shipped', 'Hello {{customerName}},

your order {{orderId}} is on its way with {{carrier}}.

Tracking number: {{trackingNumber}}
Track it: {{trackingUrl}}

{{shipmentItems}}

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>your order <strong>{{orderId}}</strong> is on its way with {{carrier}}.</p>
<p>Tracking number: <strong>{{trackingNumber}}</strong><br>Track it: {{trackingUrl}}</p>
<p><pre>{{shipmentItems}}</pre></p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_shipment_shipped_sms', 'shipment_shipped', 'sms', 'shipment.shipped', 'customer', 'transactional', 'SMS to the customer when a shipment leaves, with its tracking.', NULL, '{{storeName}}: order {{orderId}} has shipped with {{carrier}}, tracking {{trackingNumber}} {{trackingUrl}}', NULL, 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_order_cancelled_email', 'order_cancelled', 'email', 'order.cancelled', 'customer', 'transactional', 'To the customer when an order is cancelled.', '{{storeName}}: order {{orderId}} cancelled', 'Hello {{customerName}},

your order {{orderId}} ({{total}}) has been cancelled. Any payment will be refunded to the original method.

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>your order <strong>{{orderId}}</strong> ({{total}}) has been cancelled. Any payment will be refunded to the original method.</p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_password_reset_email', 'password_reset', 'email', 'password_reset', 'customer', 'transactional', 'The password-reset link, sent by POST /api/auth/password-reset.', '{{storeName}}: reset your password', 'Hello {{customerName}},

someone (hopefully you) asked to reset the password of your account. Open this link within {{expiresInMinutes}} minutes to choose a new one:

{{resetUrl}}

Or send this code with your new password to POST /api/auth/password-reset/confirm: {{token}}

If you did not ask for this, ignore this email: your password stays as it is.

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>someone (hopefully you) asked to reset the password of your account. Open this link within {{expiresInMinutes}} minutes to choose a new one:</p>
<p><a href="{{resetUrl}}">{{resetUrl}}</a></p>
<p>If you did not ask for this, ignore this email: your password stays as it is.</p>
<p>{{storeName}}</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_low_stock_email', 'low_stock', 'email', 'inventory.low', 'admin', 'transactional', 'To the store staff (inventory:read) when a variant falls to its low-stock threshold.', 'Low stock: {{productName}} ({{sku}})', '{{productName}} {{variantName}} (SKU {{sku}}) is down to {{quantity}} in stock; the threshold is {{threshold}}.

Restock it with POST /api/inventory/{{variantId}}/adjustments.', '<p><strong>{{productName}}</strong> {{variantName}} (SKU {{sku}}) is down to <strong>{{quantity}}</strong> in stock; the threshold is {{threshold}}.</p>
<p>Restock it with POST /api/inventory/{{variantId}}/adjustments.</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_webhook_endpoint_disabled_email', 'webhook_endpoint_disabled', 'email', 'webhook_endpoint_disabled', 'admin', 'transactional', 'To the store staff (webhooks:read) when a failing webhook endpoint is switched off.', 'Webhook endpoint disabled: {{url}}', 'The webhook endpoint {{url}} ({{endpointId}}) has been disabled.

It has failed every delivery since {{failingSince}} (more than {{disableAfterHours}} hours); the last attempt got: {{problem}}.

Fix the receiver, then turn the endpoint back on with PATCH /api/webhooks/{{endpointId}} {"active": true} and redeliver what it missed.', '<p>The webhook endpoint <strong>{{url}}</strong> ({{endpointId}}) has been disabled.</p>
<p>It has failed every delivery since {{failingSince}} (more than {{disableAfterHours}} hours); the last attempt got: {{problem}}.</p>
<p>Fix the receiver, then turn the endpoint back on with PATCH /api/webhooks/{{endpointId}} {"active": true} and redeliver what it missed.</p>', 1);
--> statement-breakpoint
INSERT INTO notification_templates (id, key, channel, event, audience, category, description, subject, body, body_html, active) VALUES ('tmpl_welcome_email', 'welcome', 'email', 'customer.registered', 'customer', 'marketing', 'A welcome to a new customer (marketing: not sent to customers who opted out of marketing email).', 'Welcome to {{storeName}}', 'Hello {{customerName}},

welcome to {{storeName}}! Your account {{email}} is ready.

{{storeName}}', '<p>Hello {{customerName}},</p>
<p>welcome to <strong>{{storeName}}</strong>! Your account {{email}} is ready.</p>
<p>{{storeName}}</p>', 1);
