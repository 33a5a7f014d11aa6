// Compiled by `tsc -p .` only (no test runs it): a handler's answer is checked against the schema its
// route declares, through ok()/created()/list() (src/lib/envelope.ts), so each `@ts-expect-error`
// below fails the typecheck the day a wrong answer would compile again.
import { z } from '@hono/zod-openapi';
import { created, list, ok, pagination } from '../../src/lib/envelope';
import { type AppRouteHandler, apiRoute, errorResponses, IdParams, listResponse, operation, successResponse } from '../../src/lib/openapi';
import { type FieldTree, project } from '../../src/lib/query';
import { access } from '../../src/lib/route-access';

const Thing = z.object({ id: z.string(), price: z.number(), tags: z.array(z.object({ name: z.string() })) });
const head = (method: string) => ({ ...operation('things', method, `${method}Thing`), tags: ['Things'], summary: 'A thing', policy: { access: access.public() } });

const getThing = apiRoute({
  ...head('get'),
  method: 'get',
  path: '/things/{id}',
  request: { params: IdParams },
  responses: { 200: successResponse(Thing, 'The thing.'), ...errorResponses(404) },
});
const createThing = apiRoute({
  ...head('create'),
  method: 'post',
  path: '/things',
  responses: { 201: successResponse(Thing, 'The created thing.'), ...errorResponses(422) },
});
const listThings = apiRoute({
  ...head('list'),
  method: 'get',
  path: '/things',
  responses: { 200: listResponse(Thing, 'The things.'), ...errorResponses(400) },
});

const thing = { id: 'thing_1', price: 12.5, tags: [{ name: 'red' }] };
const fields: FieldTree | undefined = { id: true };

export const answersItsSchema: AppRouteHandler<typeof getThing> = async (c) => ok(c, thing);
// A `fields` selection stands for the item it was taken from: the item is what is checked.
export const answersASelection: AppRouteHandler<typeof getThing> = async (c) => ok(c, project(thing, fields));
export const createsItsSchema: AppRouteHandler<typeof createThing> = async (c) => created(c, thing, '/api/things/thing_1');
export const listsItsSchema: AppRouteHandler<typeof listThings> = async (c) => list(c, [project(thing, fields)], pagination(1, 20, 1));

// @ts-expect-error a field of the wrong type
export const wrongType: AppRouteHandler<typeof getThing> = async (c) => ok(c, { ...thing, price: '12.50' });
// @ts-expect-error a declared field missing
export const missingField: AppRouteHandler<typeof getThing> = async (c) => ok(c, { id: thing.id, price: thing.price });
// @ts-expect-error a nested field of the wrong type
export const wrongNested: AppRouteHandler<typeof getThing> = async (c) => ok(c, { ...thing, tags: [{ name: 1 }] });
// @ts-expect-error a selection of something else than the item
export const wrongSelection: AppRouteHandler<typeof getThing> = async (c) => ok(c, project({ id: 1 }, fields));
// @ts-expect-error 200 where the route declares 201
export const wrongStatus: AppRouteHandler<typeof createThing> = async (c) => ok(c, thing);
// @ts-expect-error one item where the route declares a list
export const notAList: AppRouteHandler<typeof listThings> = async (c) => ok(c, thing);
// @ts-expect-error a list item of the wrong shape
export const wrongItem: AppRouteHandler<typeof listThings> = async (c) => list(c, [{ id: 1 }], pagination(1, 20, 1));
