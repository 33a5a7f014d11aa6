import { access } from '../../lib/route-access';
import { apiRoute, errorResponses, jsonBody, operation, successResponse, writeErrors } from '../../lib/openapi';
import { fieldTreeFromSchema, readQuerySchema } from '../../lib/query';
import { SettingsSchema, UpdateSettingsBody } from './settings.schemas';

const tags = ['Settings'];
export const settingsSelectable = fieldTreeFromSchema(SettingsSchema);

export const getSettings = apiRoute({
  ...operation('settings', 'get', 'getSettings'),
  method: 'get',
  path: '/settings',
  tags,
  summary: 'Get the store settings',
  description: 'Amounts are in major units of `defaultCurrency`, the currency catalogue prices are in.',
  policy: { access: access.permission('settings:read') },
  request: { query: readQuerySchema(settingsSelectable) },
  responses: { 200: successResponse(SettingsSchema, 'The store settings.'), ...errorResponses(400, 401, 403) },
});

export const updateSettings = apiRoute({
  ...operation('settings', 'update', 'updateSettings'),
  method: 'patch',
  path: '/settings',
  tags,
  summary: 'Update the store settings',
  description:
    'Catalogue prices, coupon amounts and shipping amounts are stored in minor units of `defaultCurrency` and are never converted. ' +
    "So a new `defaultCurrency` must be an existing enabled currency (422 otherwise) whose exchange rate is already 1 and whose minor units equal the current default's (409 otherwise): " +
    'set its rate to 1 at `PATCH /api/settings/currencies/{code}` first, then re-express the other rates against it. ' +
    'Shipping amounts are read in major units of the default currency after the change. ' +
    '`shippingFlatRate` and `freeShippingThreshold` are deprecated aliases of the "Standard" shipping method (`/api/settings/shipping-zones`): ' +
    'a request that writes them is answered with `Deprecation`, `Sunset` and `Link` headers, and 409 once that method is deleted (or, for the rate, no longer flat).',
  policy: { access: access.permission('settings:write') },
  request: { body: jsonBody(UpdateSettingsBody, 'Fields to change.') },
  responses: { 200: successResponse(SettingsSchema, 'The updated settings.'), ...errorResponses(...writeErrors, 409) },
});
