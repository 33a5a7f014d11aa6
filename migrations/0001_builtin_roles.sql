-- The built-in roles. Their ids are their names; the API refuses to delete or rename them.
INSERT INTO `roles` (`id`, `name`, `description`, `permissions`, `built_in`) VALUES
  ('admin', 'admin', 'Every permission on every resource.', '["*"]', 1),
  ('vendor', 'vendor', 'Manages its own vendor''s products and sees the orders that contain them.', '["products:read","products:write","orders:read"]', 1),
  ('customer', 'customer', 'A shopper: its own profile, addresses, carts and orders.', '[]', 1);
