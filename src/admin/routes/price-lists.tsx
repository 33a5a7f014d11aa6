import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { customerGroupListQuery, listCustomerGroups } from '../../modules/customer-groups';
import { priceListListQuery, priceListRoutes as routes, priceListsService as service } from '../../modules/price-lists';
import { CreatePriceListBody, UpdatePriceListBody } from '../../modules/price-lists/schemas';
import { getStoreCurrencies } from '../../modules/settings';
import { utcInstant } from '../components/content';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf } from '../list';
import { PriceListEditPage, PriceListListPage, priceListValues } from '../pages/price-lists';

const HERE = '/admin/price-lists';
type C = Context<AppEnv>;

const canWrite = (c: C) => hasPermission(c.var.principal, 'price-lists:write');
const groupsOf = async (c: C) => (await listCustomerGroups(c.var.db, firstPage(customerGroupListQuery))).items;

/**
 * `var_01… 8.50` or `var_01… 8.50 10` a line as the API's prices. A line that is not an id and one or
 * two numbers is passed on as typed, so the API's schema names the line (`prices.2.amount`).
 */
function pricesFromText(text: string | undefined) {
  return (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [variantId = '', amount = '', minQuantity] = line.split(/[\s,;]+/);
      const number = (value: string) => (Number.isFinite(Number(value)) && value !== '' ? Number(value) : value);
      return { variantId, amount: number(amount), ...(minQuantity === undefined ? {} : { minQuantity: number(minQuantity) }) };
    });
}

function listBody(form: Posted, creating: boolean) {
  const optional = creating ? (name: string) => str(form, name) : (name: string) => orNull(form, name);
  const instant = (name: string) => utcInstant(form, name) ?? (creating ? undefined : null);
  return {
    name: str(form, 'name') ?? '',
    description: optional('description'),
    customerGroupId: optional('customerGroupId'),
    ...(creating ? { currency: str(form, 'currency') } : {}),
    status: str(form, 'status'),
    startsAt: instant('startsAt'),
    endsAt: instant('endsAt'),
    prices: pricesFromText(form.prices?.[0]),
  };
}

async function listPage(c: C, form: FormState, status = 200) {
  const { query, values } = listQuery(c, priceListListQuery);
  const [{ items, total }, groups, store] = await Promise.all([service.listPriceLists(c.var.db, query), groupsOf(c), getStoreCurrencies(c.var.db)]);
  const currencies = [...store.digits.keys()].sort();
  const view = (
    <PriceListListPage
      lists={items}
      groups={groups}
      currencies={currencies}
      page={pageOf(query, total)}
      url={c.req.url}
      filters={emptyForm(values)}
      form={form}
      csrf={sessionOf(c).csrfToken}
      canWrite={canWrite(c)}
    />
  );
  return page(c, { title: 'Price lists', active: HERE, status }, view);
}

async function editPage(c: C, id: string, form?: FormState, status = 200) {
  const [list, groups] = await Promise.all([service.getPriceList(c.var.db, id), groupsOf(c)]);
  const view = <PriceListEditPage list={list} groups={groups} form={form ?? emptyForm(priceListValues(list))} csrf={sessionOf(c).csrfToken} canWrite={canWrite(c)} />;
  return page(c, { title: list.name, active: HERE, status }, view);
}

export const priceListRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), async (c) => {
    const store = await getStoreCurrencies(c.var.db);
    return listPage(c, emptyForm({ currency: store.default.code, status: 'active' }));
  })
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const list = await service.createPriceList(c.var.db, validate(CreatePriceListBody, listBody(form, true)));
      return redirectWith(c, `${HERE}/${list.id}`, `Price list “${list.name}” created.`);
    } catch (error) {
      return listPage(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/:id', guard(routes.get), (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const list = await service.updatePriceList(c.var.db, id, validate(UpdatePriceListBody, listBody(form, false)));
      return redirectWith(c, `${HERE}/${list.id}`, `Price list “${list.name}” saved.`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_FOUND') throw error;
      return editPage(c, id, failure(error, refill(form)), failureStatus(error));
    }
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    await service.deletePriceList(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Price list deleted.');
  });
