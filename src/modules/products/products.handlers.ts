import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { actorRef, type Principal } from '../../lib/access';
import { productVisibility, productWriter } from './products.access';
import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './products.routes';
import * as read from './products.read';
import * as service from './products.service';
import * as variantService from './variants.service';
import { releaseFiles } from './product-media.objects';
import { DRAFT_CREATED_MESSAGE, MAX_VARIANTS_PER_PRODUCT } from './products.schemas';
import { asShownTo } from './shown-prices';

type WithPrincipal = { var: { principal: Principal } };
const visibility = (c: WithPrincipal) => productVisibility(c.var.principal);
/** A vendor user writes only its own vendor's products. */
const scope = (c: WithPrincipal) => productWriter(c.var.principal);

export const listProducts: AppRouteHandler<typeof routes.listProducts> = async (c) => {
  const {
    filters: { facets, currency, ...filters },
    ...query
  } = c.req.valid('query');
  const view = await read.viewFor(c.var.db, currency);
  const { items, total, facets: counted } = await read.listProducts(c.var.db, { ...query, filters }, visibility(c), facets, view);
  const shown = await asShownTo(c.var.db, c.var.principal, items);
  return list(
    c,
    shown.map((p) => project(p, query.fields)),
    pagination(query.page, query.limit, total),
    'OK',
    counted ? { facets: counted } : {},
  );
};

export const suggestProducts: AppRouteHandler<typeof routes.suggestProducts> = async (c) => {
  return ok(c, await read.suggestProducts(c.var.db, c.req.valid('query').q, visibility(c)));
};

/** A product as the caller buys it: a signed-in customer sees its price-list prices (shown-prices.ts). */
async function shownProduct(c: Context<AppEnv>, idOrSlug: string, currency: string | undefined) {
  const product = await read.getProduct(c.var.db, idOrSlug, visibility(c), await read.viewFor(c.var.db, currency));
  return (await asShownTo(c.var.db, c.var.principal, [product]))[0]!;
}

export const getProduct: AppRouteHandler<typeof routes.getProduct> = async (c) => {
  const { fields, currency } = c.req.valid('query');
  return ok(c, project(await shownProduct(c, c.req.valid('param').id, currency), fields));
};

export const createProduct: AppRouteHandler<typeof routes.createProduct> = async (c) => {
  const product = await service.createProduct(c.var.db, c.req.valid('json'), scope(c));
  const message = product.status === 'draft' ? DRAFT_CREATED_MESSAGE : 'Product created';
  return created(c, product, `/api/products/${product.id}`, message);
};

export const updateProduct: AppRouteHandler<typeof routes.updateProduct> = async (c) => {
  return ok(c, await service.updateProduct(c.var.db, c.req.valid('param').id, c.req.valid('json'), scope(c)), 'Product updated');
};

export const deleteProduct: AppRouteHandler<typeof routes.deleteProduct> = async (c) => {
  const product = await service.deleteProduct(c.var.db, c.req.valid('param').id, scope(c));
  await releaseFiles(
    c.var.db,
    c.env.MEDIA,
    product.media.map((m) => m.key),
  );
  return noContent(c);
};

export const listVariants: AppRouteHandler<typeof routes.listVariants> = async (c) => {
  const { fields, currency } = c.req.valid('query');
  const { variants } = await shownProduct(c, c.req.valid('param').id, currency);
  return list(
    c,
    variants.map((v) => project(v, fields)),
    pagination(1, MAX_VARIANTS_PER_PRODUCT, variants.length),
  );
};

export const getVariant: AppRouteHandler<typeof routes.getVariant> = async (c) => {
  const { id, variantId } = c.req.valid('param');
  const { fields, currency } = c.req.valid('query');
  return ok(c, project(variantService.findVariant(await shownProduct(c, id, currency), variantId), fields));
};

export const createVariant: AppRouteHandler<typeof routes.createVariant> = async (c) => {
  const { id } = c.req.valid('param');
  const variant = await variantService.createVariant(c.var.db, id, c.req.valid('json'), scope(c));
  return created(c, variant, `/api/products/${id}/variants/${variant.id}`, 'Variant created');
};

export const updateVariant: AppRouteHandler<typeof routes.updateVariant> = async (c) => {
  const { id, variantId } = c.req.valid('param');
  const actor = actorRef(c.var.principal);
  return ok(c, await variantService.updateVariant(c.var.db, id, variantId, c.req.valid('json'), scope(c), new Date(), actor), 'Variant updated');
};

export const deleteVariant: AppRouteHandler<typeof routes.deleteVariant> = async (c) => {
  const { id, variantId } = c.req.valid('param');
  await variantService.deleteVariant(c.var.db, id, variantId, scope(c));
  return noContent(c);
};
