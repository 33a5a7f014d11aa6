import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { actorRef, hasPermission } from '../../lib/access';
import { giftCardSecret } from '../../modules/ledger';
import { giftCardListQuery, giftCardRoutes as routes, giftCardsService as service } from '../../modules/gift-cards';
import { CreateGiftCardBody } from '../../modules/gift-cards/schemas';
import { getStoreCurrencies } from '../../modules/settings';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { endOfDay, failure, failureStatus, num, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { GiftCardsPage, type GiftCardsView } from '../pages/gift-cards';
import { moneyWith } from '../money';

const HERE = '/admin/gift-cards';

async function show(c: Context<AppEnv>, form: FormState, status = 200, issued?: GiftCardsView['issued']) {
  const session = sessionOf(c);
  const { query } = listQuery(c, giftCardListQuery);
  const [{ items, total }, store] = await Promise.all([service.listGiftCards(c.var.db, query), getStoreCurrencies(c.var.db)]);
  const view: GiftCardsView = {
    cards: items,
    money: moneyWith(store.digits),
    page: pageOf(query, total),
    url: c.req.url,
    currencies: [store.default.code, ...[...store.digits.keys()].filter((code) => code !== store.default.code).sort()],
    form,
    csrf: session.csrfToken,
    canWrite: hasPermission(session.principal, 'gift-cards:write'),
    issued,
  };
  return page(c, { title: 'Gift cards', active: HERE, status }, <GiftCardsPage {...view} />);
}

const setStatus = (status: 'active' | 'disabled', flash: string) =>
  [
    guard(routes.update),
    async (c: Context<AppEnv>) => {
      await service.updateGiftCard(c.var.db, c.req.param('id')!, { status });
      return redirectWith(c, HERE, flash);
    },
  ] as const;

export const giftCardRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), (c) => show(c, emptyForm({})))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    const values = refill(form);
    try {
      const input = validate(CreateGiftCardBody, {
        amount: num(form, 'amount'),
        currency: str(form, 'currency'),
        expiresAt: endOfDay(form, 'expiresAt'),
        recipientEmail: str(form, 'recipientEmail'),
        recipientName: str(form, 'recipientName'),
        message: str(form, 'message'),
      });
      const issued = await service.issueGiftCard(c.var.db, giftCardSecret(c.env), input, actorRef(c.var.principal));
      // Shown in this response only (not redirected): the code is never stored to show it later.
      return show(c, emptyForm({ currency: values.currency }), 201, issued);
    } catch (error) {
      return show(c, failure(error, values), failureStatus(error));
    }
  })
  .post('/:id/disable', ...setStatus('disabled', 'The card is disabled: it pays nothing until enabled again.'))
  .post('/:id/enable', ...setStatus('active', 'The card is enabled again.'));
