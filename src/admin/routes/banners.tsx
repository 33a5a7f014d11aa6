import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { MAX_LIMIT } from '../../lib/query';
import { bannerListQuery, bannerRoutes as routes, bannersService as service } from '../../modules/banners';
import { type Banner, CreateBannerBody, UpdateBannerBody } from '../../modules/banners/schemas';
import { contentWriters, utcInstant, utcLocal } from '../components/content';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { checked, failure, failureStatus, num, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf, parseList } from '../list';
import { BannerForm, BannerListPage } from '../pages/banners';

const HERE = '/admin/content/banners';
type C = Context<AppEnv>;

/** The banner form as the API's body: blanks left out when creating, cleared (null) when editing. */
function bannerBody(form: Posted, creating: boolean) {
  const clear = creating ? (name: string) => str(form, name) : (name: string) => orNull(form, name);
  const when = (name: string) => utcInstant(form, name) ?? (creating ? undefined : null);
  return {
    title: str(form, 'title'),
    imageUrl: str(form, 'imageUrl'),
    linkUrl: clear('linkUrl'),
    altText: clear('altText'),
    placement: str(form, 'placement'),
    position: num(form, 'position'),
    startsAt: when('startsAt'),
    endsAt: when('endsAt'),
    active: checked(form, 'active'),
  };
}

const bannerValues = (b: Banner): Record<string, unknown> => ({ ...b, startsAt: utcLocal(b.startsAt), endsAt: utcLocal(b.endsAt), active: b.active ? 'on' : '' });

/** The placements in use, for the filter (banners are few; the first page of the largest size by placement). */
async function placements(c: C): Promise<string[]> {
  const { items } = await service.listBanners(c.var.db, parseList(bannerListQuery, { limit: String(MAX_LIMIT) }), c.var.principal);
  return [...new Set(items.map((b) => b.placement))];
}

async function formPage(c: C, form: FormState, banner: Banner | null, status = 200) {
  const view = <BannerForm banner={banner} form={form} csrf={sessionOf(c).csrfToken} />;
  return page(c, { title: banner ? banner.title : 'New banner', active: HERE, status }, view);
}

export const bannerRoutes = new Hono<AppEnv>()
  .get('/', contentWriters, async (c) => {
    const { query, values } = listQuery(c, bannerListQuery);
    const [{ items, total }, used] = await Promise.all([service.listBanners(c.var.db, query, c.var.principal), placements(c)]);
    return page(
      c,
      { title: 'Banners', active: HERE },
      <BannerListPage banners={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} placements={used} />,
    );
  })
  .get('/new', guard(routes.create), (c) => formPage(c, emptyForm({ active: 'on', position: '0' }), null))
  .post('/new', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const banner = await service.createBanner(c.var.db, validate(CreateBannerBody, bannerBody(form, true)));
      return redirectWith(c, `${HERE}/${banner.id}`, `Banner “${banner.title}” created: ${banner.status}.`);
    } catch (error) {
      return formPage(c, failure(error, refill(form)), null, failureStatus(error));
    }
  })
  .get('/:id', contentWriters, async (c) => {
    const banner = await service.getBanner(c.var.db, c.req.param('id'), c.var.principal);
    return formPage(c, emptyForm(bannerValues(banner)), banner);
  })
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const banner = await service.updateBanner(c.var.db, id, validate(UpdateBannerBody, bannerBody(form, false)));
      return redirectWith(c, `${HERE}/${banner.id}`, `Banner saved: ${banner.status}.`);
    } catch (error) {
      const banner = await service.getBanner(c.var.db, id, c.var.principal);
      return formPage(c, failure(error, refill(form)), banner, failureStatus(error));
    }
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    await service.deleteBanner(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Banner deleted.');
  });
