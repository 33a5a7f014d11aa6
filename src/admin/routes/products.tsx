import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { actorRef, hasPermission, isStaff } from '../../lib/access';
import { brandListQuery, listBrands } from '../../modules/brands';
import { categoryListQuery, listCategories } from '../../modules/categories';
import {
  productListQuery,
  productsRoutes as routes,
  productsRead as read,
  productsService as service,
  variantsService as variantService,
  productVisibility,
  productWriter,
  releaseFiles,
  currencyTableOf,
  currencyTableRead,
} from '../../modules/products';
import { CreateProductBody, CreateVariantBody, type Product, UpdateProductBody, UpdateVariantBody } from '../../modules/products/schemas';
import { mediaMaxBytes } from '../../modules/media';
import { vendorListQuery, listVendors } from '../../modules/vendors';
import { taxClasses } from '../../db/schema';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { all, failure, failureStatus, num, numOrNull, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf } from '../list';
import { postedPrices, priceValues } from '../pages/currency-prices';
import { moneyWith } from '../money';
import { optionsText, ProductEditPage, ProductForm, type ProductChoices, ProductListPage } from '../pages/products';

const HERE = '/admin/products';
type C = Context<AppEnv>;

/** As the API's product handlers: staff see every status, a vendor user only its vendor's products. */
const visibility = (c: C) => productVisibility(c.var.principal);
const scope = (c: C) => productWriter(c.var.principal);

/** The list is public in the API; in the panel it is for those who manage products. */
const staffOnly = guard({
  middleware: async (c, next) => {
    if (!isStaff(c.var.principal, 'products')) throw ApiError.forbidden("This account lacks the 'products:read' permission");
    return next();
  },
});

async function choices(c: C): Promise<ProductChoices> {
  const db = c.var.db;
  const [brands, categories, vendors, [classes, currencyRows]] = await Promise.all([
    listBrands(db, firstPage(brandListQuery)),
    listCategories(db, firstPage(categoryListQuery)),
    scope(c) ? Promise.resolve({ items: [] }) : listVendors(db, firstPage(vendorListQuery)),
    db.batch([db.select({ id: taxClasses.code, name: taxClasses.name }).from(taxClasses).orderBy(taxClasses.name), currencyTableRead(db, {})]),
  ]);
  const pairs = (rows: { id: string; name: string }[]): [string, string][] => rows.map((r) => [r.id, r.name]);
  const table = currencyTableOf(currencyRows);
  const currencies = [...table.byCode.keys()].filter((code) => code !== table.defaultCode).sort();
  const money = moneyWith(new Map([...table.byCode].map(([code, currency]) => [code, currency.minorUnits])));
  return { brands: pairs(brands.items), categories: pairs(categories.items), vendors: pairs(vendors.items), taxClasses: pairs(classes), currencies, money };
}

/** The product form as the API's body: blanks left out when creating, cleared (null) when editing. */
function productBody(form: Posted, creating: boolean, c: C, currencies: readonly string[]) {
  const clear = creating ? (name: string) => str(form, name) : (name: string) => orNull(form, name);
  return {
    prices: postedPrices(form, currencies).prices,
    taxClass: str(form, 'taxClass'),
    name: str(form, 'name'),
    slug: str(form, 'slug'),
    description: clear('description'),
    price: num(form, 'price'),
    compareAtPrice: creating ? num(form, 'compareAtPrice') : numOrNull(form, 'compareAtPrice'),
    sku: clear('sku'),
    status: str(form, 'status'),
    brandId: clear('brandId'),
    ...(scope(c) ? {} : { vendorId: clear('vendorId') }),
    categoryIds: all(form, 'categoryIds'),
    ...(creating ? { stock: num(form, 'stock'), weight: num(form, 'weight') } : {}),
    lowStockThreshold: creating ? num(form, 'lowStockThreshold') : numOrNull(form, 'lowStockThreshold'),
  };
}

const productValues = (p: Product): Record<string, unknown> => ({
  ...p,
  ...priceValues(p.prices),
  brandId: p.brand?.id ?? '',
  vendorId: p.vendor?.id ?? '',
  categoryIds: p.categories.map((cat) => cat.id),
});

/** `size=M, color=Blue` as the API's options object; a pair without `=` is left for the schema to refuse. */
function parseOptions(text: string | undefined): Record<string, string> | string | undefined {
  if (text === undefined) return undefined;
  const pairs = text.split(',').map((pair) => pair.split('=').map((s) => s.trim()));
  if (pairs.some((p) => p.length !== 2 || !p[0] || !p[1])) return text;
  return Object.fromEntries(pairs as [string, string][]);
}

function variantBody(form: Posted, key: string, creating: boolean, currencies: readonly string[]) {
  const field = (name: string) => `${key}.${name}`;
  return {
    prices: postedPrices(form, currencies, `${key}.`).prices,
    sku: creating ? str(form, field('sku')) : orNull(form, field('sku')),
    name: creating ? str(form, field('name')) : orNull(form, field('name')),
    options: parseOptions(str(form, field('options'))) ?? (creating ? undefined : {}),
    price: num(form, field('price')),
    stock: num(form, field('stock')),
    weight: creating ? num(form, field('weight')) : numOrNull(form, field('weight')),
  };
}

async function editPage(c: C, id: string, forms: { product?: FormState; variant?: FormState } = {}, status = 200, known?: ProductChoices) {
  const [product, options] = await Promise.all([read.getProduct(c.var.db, id, visibility(c)), known ?? choices(c)]);
  const view = (
    <ProductEditPage
      product={product}
      form={forms.product ?? emptyForm(productValues(product))}
      variantForm={forms.variant ?? emptyForm()}
      csrf={sessionOf(c).csrfToken}
      choices={options}
      mediaMaxBytes={mediaMaxBytes(c.env)}
    />
  );
  return page(c, { title: product.name, active: HERE, status }, view);
}

async function newPage(c: C, form: FormState, status = 200, known?: ProductChoices) {
  const view = <ProductForm action={`${HERE}/new`} form={form} csrf={sessionOf(c).csrfToken} choices={known ?? (await choices(c))} creating />;
  return page(c, { title: 'New product', active: HERE, status }, view);
}

/** Variant fields posted as `<variant id>.<field>`, shown again unprefixed with their errors. */
function variantFailure(error: unknown, form: Posted, key: string, currencies: readonly string[]): FormState {
  const values = Object.fromEntries(Object.entries(refill(form)).flatMap(([k, v]) => (k.startsWith(`${key}.`) ? [[k.slice(key.length + 1), v]] : [])));
  return failure(error, { ...values, variantId: key }, postedPrices(form, currencies, `${key}.`).fieldNames);
}

export const productRoutes = new Hono<AppEnv>()
  .get('/', staffOnly, async (c) => {
    const { query, values } = listQuery(c, productListQuery);
    const [{ items, total }, options] = await Promise.all([read.listProducts(c.var.db, query, visibility(c)), choices(c)]);
    const canWrite = hasPermission(c.var.principal, 'products:write');
    return page(
      c,
      { title: 'Products', active: HERE },
      <ProductListPage products={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} choices={options} canWrite={canWrite} />,
    );
  })
  .get('/new', guard(routes.createProduct), (c) => newPage(c, emptyForm({ status: 'draft' })))
  .post('/new', guard(routes.createProduct), async (c) => {
    const [form, options] = await Promise.all([readForm(c), choices(c)]);
    try {
      const product = await service.createProduct(c.var.db, validate(CreateProductBody, productBody(form, true, c, options.currencies)), scope(c));
      return redirectWith(c, `${HERE}/${product.id}`, `Product “${product.name}” created.`);
    } catch (error) {
      const failed = failure(error, refill(form, ['categoryIds']), postedPrices(form, options.currencies).fieldNames);
      return newPage(c, failed, failureStatus(error), options);
    }
  })
  .get('/:id', staffOnly, (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.updateProduct), async (c) => {
    const id = c.req.param('id');
    const [form, options] = await Promise.all([readForm(c), choices(c)]);
    try {
      const product = await service.updateProduct(c.var.db, id, validate(UpdateProductBody, productBody(form, false, c, options.currencies)), scope(c));
      return redirectWith(c, `${HERE}/${product.id}`, 'Product saved.');
    } catch (error) {
      const failed = failure(error, refill(form, ['categoryIds']), postedPrices(form, options.currencies).fieldNames);
      return editPage(c, id, { product: failed }, failureStatus(error), options);
    }
  })
  .post('/:id/archive', guard(routes.updateProduct), async (c) => {
    const product = await service.updateProduct(c.var.db, c.req.param('id'), { status: 'archived' }, scope(c));
    return redirectWith(c, `${HERE}/${product.id}`, `“${product.name}” is archived.`);
  })
  .post('/:id/delete', guard(routes.deleteProduct), async (c) => {
    const id = c.req.param('id');
    try {
      const product = await read.getProduct(c.var.db, id, visibility(c));
      const deleted = await service.deleteProduct(c.var.db, id, scope(c));
      await releaseFiles(
        c.var.db,
        c.env.MEDIA,
        deleted.media.map((m) => m.key),
      );
      return redirectWith(c, HERE, `“${product.name}” deleted.`);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'NOT_FOUND') throw error;
      return redirectWith(c, `${HERE}/${id}`, error.message, 'error');
    }
  })
  .post('/:id/variants', guard(routes.createVariant), async (c) => {
    const id = c.req.param('id');
    const [form, options] = await Promise.all([readForm(c), choices(c)]);
    try {
      await variantService.createVariant(c.var.db, id, validate(CreateVariantBody, variantBody(form, 'new', true, options.currencies)), scope(c));
      return redirectWith(c, `${HERE}/${id}`, 'Variant added.');
    } catch (error) {
      return editPage(c, id, { variant: variantFailure(error, form, 'new', options.currencies) }, failureStatus(error), options);
    }
  })
  .post('/:id/variants/:variantId', guard(routes.updateVariant), async (c) => {
    const { id, variantId } = c.req.param();
    const [form, options] = await Promise.all([readForm(c), choices(c)]);
    try {
      const body = validate(UpdateVariantBody, variantBody(form, variantId, false, options.currencies));
      await variantService.updateVariant(c.var.db, id, variantId, body, scope(c), new Date(), actorRef(c.var.principal));
      return redirectWith(c, `${HERE}/${id}`, 'Variant saved.');
    } catch (error) {
      return editPage(c, id, { variant: variantFailure(error, form, variantId, options.currencies) }, failureStatus(error), options);
    }
  })
  .post('/:id/variants/:variantId/delete', guard(routes.deleteVariant), async (c) => {
    const { id, variantId } = c.req.param();
    await variantService.deleteVariant(c.var.db, id, variantId, scope(c));
    return redirectWith(c, `${HERE}/${id}`, 'Variant deleted.');
  });

export { optionsText };
