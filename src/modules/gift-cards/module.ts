import { defineModule } from '../../lib/define-module';

export default defineModule({
  name: 'gift-cards',
  routers: [{ at: '/api', keys: ['api/gift-cards'], load: async () => (await import('./router')).giftCardsRouter }],
  permissions: ['gift-cards'],
  tables: {
    audited: { gift_cards: 'gift_card' },
    notAudited: {
      gift_card_transactions: "a ledger itself: every change of a gift card's balance, with who made it",
      cart_gift_cards: 'gift cards applied to a cart, bookkeeping of the cart',
    },
  },
  events: ['gift_card.issued'],
  eventKinds: async () => (await import('./gift-cards.events')).EVENT_KINDS,
});
