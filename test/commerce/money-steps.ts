import fc from 'fast-check';
import { CURRENCIES, type Currency } from './money-shop';

/**
 * The steps of a run of the money conservation property, as fast-check generates (and shrinks)
 * them. Orders, lines and payments are picked by index among those a step can act on when it runs
 * (money-run.ts), so any list of steps is a valid run; amounts are minor units.
 */

export type Remainder = 'none' | 'manual' | 'stripe';

export type Step =
  /** A shopper's cart through checkout, then paid (in part) by store credit and by `rest`. */
  | {
      kind: 'place';
      currency: Currency;
      guest: boolean;
      lines: { product: number; quantity: number }[];
      code: boolean;
      /** How many of the run's usable cards to apply, from the `cardsFrom`th (wrapping). */
      giftCards: number;
      cardsFrom: number;
      credit: 'none' | 'some' | 'all';
      rest: Remainder;
    }
  | { kind: 'pay'; order: number; method: 'manual' | 'stripe' | 'store_credit' | 'gift_card'; card: number; half: boolean }
  | { kind: 'issueGiftCard'; currency: Currency; amount: number }
  | { kind: 'addCredit'; currency: Currency; amount: number }
  /** `giftCardLine`: of a line that bought gift cards (maybe spent since), where the order has one. */
  | { kind: 'refundLines'; order: number; giftCardLine: boolean; line: number; quantity: number; payment: number; toCredit: boolean; shipping: boolean }
  | { kind: 'refundAmount'; order: number; payment: number; half: boolean }
  | { kind: 'ship'; order: number }
  /** A return asked, approved and received (restocking some), then refunded by line, exchanged, or left. */
  | {
      kind: 'return';
      order: number;
      giftCardLine: boolean;
      line: number;
      quantity: number;
      restock: number;
      settle: 'refund' | 'exchange' | 'none';
      toCredit: boolean;
      exchange: { product: number; quantity: number };
    }
  | { kind: 'cancel'; order: number };

const pick = fc.nat({ max: 7 });
const currency = fc.constantFrom(...CURRENCIES);

const place = fc.record({
  kind: fc.constant('place' as const),
  currency,
  guest: fc.boolean(),
  lines: fc.uniqueArray(fc.record({ product: fc.nat({ max: 2 }), quantity: fc.integer({ min: 1, max: 3 }) }), {
    minLength: 1,
    maxLength: 3,
    selector: (l) => l.product,
  }),
  code: fc.boolean(),
  giftCards: fc.nat({ max: 2 }),
  cardsFrom: fc.nat({ max: 3 }),
  credit: fc.constantFrom('none' as const, 'some' as const, 'all' as const),
  rest: fc.constantFrom('manual' as const, 'stripe' as const, 'none' as const),
});

export const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: place },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      order: pick,
      method: fc.constantFrom('manual' as const, 'stripe' as const, 'store_credit' as const, 'gift_card' as const),
      card: fc.nat({ max: 3 }),
      half: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('issueGiftCard' as const), currency, amount: fc.integer({ min: 500, max: 12000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('addCredit' as const), currency, amount: fc.integer({ min: 500, max: 8000 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('refundLines' as const),
      order: pick,
      giftCardLine: fc.boolean(),
      line: fc.nat({ max: 2 }),
      quantity: fc.integer({ min: 1, max: 3 }),
      payment: fc.nat({ max: 2 }),
      toCredit: fc.boolean(),
      shipping: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refundAmount' as const), order: pick, payment: fc.nat({ max: 2 }), half: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ship' as const), order: pick }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('return' as const),
      order: pick,
      giftCardLine: fc.boolean(),
      line: fc.nat({ max: 2 }),
      quantity: fc.integer({ min: 1, max: 3 }),
      restock: fc.nat({ max: 3 }),
      settle: fc.constantFrom('refund' as const, 'exchange' as const, 'none' as const),
      toCredit: fc.boolean(),
      exchange: fc.record({ product: fc.nat({ max: 2 }), quantity: fc.integer({ min: 1, max: 2 }) }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), order: pick }) },
);

/** Whatever does the steps (money-run.ts's MoneyRun). */
export interface StepRunner {
  step(step: Step): Promise<void>;
}

/**
 * A step as a fast-check command: fast-check shrinks a failing run by dropping commands, and shows
 * only those that ran (its `toString`). Every step can run at any point (money-run.ts picks what it
 * acts on when it runs), so the model holds nothing.
 */
class StepCommand implements fc.AsyncCommand<object, StepRunner> {
  constructor(readonly step: Step) {}

  check(): boolean {
    return true;
  }

  async run(_model: object, runner: StepRunner): Promise<void> {
    await runner.step(this.step);
  }

  toString(): string {
    return JSON.stringify(this.step);
  }
}

/** The first order of a run, placed before its steps so that they have an order to act on. */
export const firstOrder = place;

export const steps = (maxCommands: number) => fc.commands([step.map((s) => new StepCommand(s))], { maxCommands, size: 'max' });
