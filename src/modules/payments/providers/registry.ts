import { manualProvider } from './manual';
import type { PaymentProvider } from './provider';

/** Providers by name; a new one (Stripe, PayPal) is one entry here and one file beside this one. */
const PROVIDERS: Record<string, PaymentProvider> = { [manualProvider.name]: manualProvider };

export const PROVIDER_NAMES = Object.keys(PROVIDERS) as [string, ...string[]];

export function paymentProvider(name: string): PaymentProvider | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
}
