import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import {
  apiRoute,
  crudOperations,
  errorResponses,
  IdParams,
  jsonBody,
  listResponse,
  noContentResponse,
  operation,
  publicReadErrors,
  successResponse,
  writeErrors,
} from '../../lib/openapi';
import { MAX_MEDIA_PER_PRODUCT, MediaSchema } from '../products/schemas';
import { MediaParams, UpdateMediaBody, UploadMediaQuery } from './media.schemas';
import { MEDIA_TYPES } from './media.sniff';
import { MULTIPART_ALLOWANCE } from './media.limits';

const tags = ['Products'];
const names = crudOperations('products.media', 'ProductMedia', 'ProductMediaList');
const binary = { type: 'string', format: 'binary' } as const;

export const listMedia = apiRoute({
  ...names.list,
  method: 'get',
  path: '/products/{id}/media',
  tags,
  summary: "List a product's images",
  description: `The images uploaded to the product (at most ${MAX_MEDIA_PER_PRODUCT}), in display order: the same list as the product's \`media\`.`,
  policy: { access: access.public(), cache: 'catalogue' },
  request: { params: IdParams },
  responses: { 200: listResponse(MediaSchema, 'The images.'), ...errorResponses(...publicReadErrors, 404) },
});

export const uploadMedia = apiRoute({
  ...names.create,
  method: 'post',
  path: '/products/{id}/media',
  tags,
  summary: 'Upload an image',
  description:
    `The image as the raw body with its \`Content-Type\` (${MEDIA_TYPES.join(', ')}; \`application/octet-stream\` lets the bytes decide), ` +
    'settings in the query; or as `multipart/form-data` with the image in the part `file` and the settings as fields (or in the query). ' +
    'At most MEDIA_MAX_BYTES (10 MiB unless the store says otherwise; 413 above). The type is read from the first bytes: a file that is not one of these ' +
    'images, or not the type it was sent as, is 415 with what was found. The file is stored under the SHA-256 of its bytes: the same image uploaded again ' +
    `(to any product) is stored once. Width and height are read from the file. At most ${MAX_MEDIA_PER_PRODUCT} images per product (409). ` +
    'Emits `product.updated`.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }), maxBodyBytes: (config) => config.MEDIA_MAX_BYTES + MULTIPART_ALLOWANCE },
  request: {
    params: IdParams,
    query: UploadMediaQuery,
    body: {
      required: true,
      description: 'The image, raw or as the `file` part of a form.',
      content: {
        ...Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: binary }])),
        'application/octet-stream': { schema: binary },
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: { ...binary, description: 'The image.' },
              alt: { type: 'string', maxLength: 500, description: 'Alt text.' },
              position: { type: 'integer', minimum: 0, description: 'Place among the images, from 0 (last when left out).' },
              variantId: { type: 'string', description: 'The variant it shows.' },
            },
          },
        },
      },
    },
  },
  responses: { 201: successResponse(MediaSchema, 'The image, with its URL.'), ...errorResponses(400, ...writeErrors, 404, 409) },
});

export const getMedia = apiRoute({
  ...names.get,
  method: 'get',
  path: '/products/{id}/media/{mediaId}',
  tags,
  summary: 'Get an image',
  policy: { access: access.public(), cache: 'catalogue' },
  request: { params: MediaParams },
  responses: { 200: successResponse(MediaSchema, 'The image.'), ...errorResponses(...publicReadErrors, 404) },
});

export const updateMedia = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/products/{id}/media/{mediaId}',
  tags,
  summary: 'Edit or move an image',
  description: 'Alt text, the variant shown, and `position`: the image moves there and the others close up behind it. Emits `product.updated`.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { params: MediaParams, body: jsonBody(UpdateMediaBody, 'Fields to change.') },
  responses: { 200: successResponse(MediaSchema, 'The image.'), ...errorResponses(...writeErrors, 404) },
});

export const deleteMedia = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/products/{id}/media/{mediaId}',
  tags,
  summary: 'Delete an image',
  description: 'The images after it move up one place. The stored file is deleted too when no other image (of any product) uses it. Emits `product.updated`.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { params: MediaParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404) },
});

const FileParams = z.object({
  key: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'key', in: 'path' }, example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.jpg' }),
});
const fileHeaders = {
  ETag: { schema: { type: 'string' }, description: "The stored object's entity tag." },
  'Cache-Control': { schema: { type: 'string' }, description: '`public, max-age=31536000, immutable`: a key names one content forever.' },
} as const;

export const getMediaFile = apiRoute({
  ...operation('media', 'file', 'getMediaFile'),
  // Image URLs are for <img>, not for the client libraries.
  'x-sdk-exclude': true,
  method: 'get',
  path: '/media/{key}',
  tags,
  summary: 'An image file',
  description:
    'Serves an uploaded image by the key in its `url`, outside /api: no credential, never rate limited. Cached for a year as immutable, with `ETag` ' +
    '(`If-None-Match` answers 304) and byte ranges (`Range: bytes=0-1023` answers 206; a range past the end 416).',
  policy: { access: access.none(), counted: false },
  request: { params: FileParams },
  responses: {
    200: { description: 'The image.', headers: fileHeaders, content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: binary }])) },
    206: { description: 'The requested bytes of the image (Content-Range says which).', headers: fileHeaders },
    304: { description: 'Not modified: the ETag given in If-None-Match is current.' },
    412: { description: 'An If-Match or If-Unmodified-Since precondition failed.' },
    416: { description: 'The range is past the end of the file (Content-Range: bytes */size).' },
    ...errorResponses(404),
  },
});
