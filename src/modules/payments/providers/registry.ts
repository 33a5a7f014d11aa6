import type { RefundRow } from '../../../db/schema';
import { ApiError } from '../../../lib/errors';
import type { Database } from '../../../db/client';
import { exchangeProvider } from './exchange';
import { giftCardProvider, giftCardProviderWith, type PaymentProvider } from '../../ledger';
import { manualProvider } from './manual';
import { storeCreditProvider } from './store-credit';
import { missingStripeSettings, type StripeSettings, stripeProvider } from './stripe';

/** Providers by name; a new one (PayPal) is one entry here and one file beside this one. */
const PROVIDERS = {
  manual: () => manualProvider,
  store_credit: () => storeCreditProvider,
  stripe: (env: StripeSettings) => {
    const missing = missingStripeSettings(env);
    if (missing.length)
      throw ApiError.validation([{ field: 'provider', problem: `the stripe provider is not set up: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set` }]);
    return stripeProvider(env);
  },
  gift_card: () => giftCardProvider,
  exchange: () => exchangeProvider,
} satisfies Record<string, (env: StripeSettings) => PaymentProvider>;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as [ProviderName, ...ProviderName[]];
/** The providers a caller may pay with: `exchange` payments are written by exchanges alone. */
export const CHARGEABLE_PROVIDERS = PROVIDER_NAMES.filter((name) => name !== 'exchange') as [ProviderName, ...ProviderName[]];

/** The provider called `name` with this store's settings; 422 naming the field when it is unknown or not set up. */
export function paymentProvider(name: string, env: StripeSettings): PaymentProvider {
  if (!Object.hasOwn(PROVIDERS, name)) throw ApiError.validation([{ field: 'provider', problem: `unknown provider '${name}'`, code: 'not_found' }]);
  return PROVIDERS[name as ProviderName](env);
}

/**
 * Who pays a refund back: store credit for one to store credit (whatever paid), the exchange for
 * the value an exchange moves to its new order, else the payment's
 * provider; a gift card's is given the database, to credit the card (a `refunded` transaction).
 */
export function refundProvider(refund: Pick<RefundRow, 'destination'>, paymentProviderName: string, env: StripeSettings, db?: Database): PaymentProvider {
  if (refund.destination === 'store_credit') return storeCreditProvider;
  if (refund.destination === 'exchange') return exchangeProvider;
  if (paymentProviderName === 'gift_card' && db) return giftCardProviderWith(db);
  return paymentProvider(paymentProviderName, env);
}
