CREATE INDEX `payments_provider_reference_idx` ON `payments` (`provider_reference`);--> statement-breakpoint
CREATE INDEX `refunds_provider_reference_idx` ON `refunds` (`provider_reference`);