import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi-dump';

describe('webhooks in the OpenAPI document', () => {
  it('documents every webhook route, with 202 for the queued actions', async () => {
    const doc = await openApiDocument();
    const ops = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/webhooks'))
      .flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`));
    expect(ops.sort()).toEqual(
      [
        'GET /api/webhooks',
        'POST /api/webhooks',
        'GET /api/webhooks/{id}',
        'PATCH /api/webhooks/{id}',
        'DELETE /api/webhooks/{id}',
        'POST /api/webhooks/{id}/rotate-secret',
        'POST /api/webhooks/{id}/test',
        'GET /api/webhooks/{id}/deliveries',
        'GET /api/webhooks/{id}/deliveries/{deliveryId}',
        'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
        'POST /api/webhooks/{id}/replay',
        'GET /api/webhooks/{id}/replays',
        'GET /api/webhooks/{id}/replays/{replayId}',
      ].sort(),
    );
    expect(doc.paths['/api/webhooks/{id}/test'].post.responses['202']).toBeDefined();
    expect(doc.paths['/api/webhooks/{id}/deliveries/{deliveryId}/redeliver'].post.responses['202']).toBeDefined();
    // A replay is queued (202), one at a time (409) and a few an hour (429).
    expect(Object.keys(doc.paths['/api/webhooks/{id}/replay'].post.responses)).toEqual(expect.arrayContaining(['202', '404', '409', '422', '429']));
    const params = doc.paths['/api/webhooks/{id}/deliveries'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['id', 'status', 'event', 'created_after', 'created_before', 'page', 'limit', 'sort', 'fields']));
  });

  it('shows the secret only where it is returned once, and says why DNS names are not resolved', async () => {
    const { components } = await openApiDocument();
    expect(components.schemas.WebhookEndpoint.properties.secret).toBeUndefined();
    expect(components.schemas.WebhookEndpoint.properties.previousSecret).toBeUndefined();
    expect(components.schemas.CreatedWebhookEndpoint.allOf).toEqual([{ $ref: '#/components/schemas/WebhookEndpoint' }, expect.objectContaining({ required: ['secret'] })]);
    expect(components.schemas.WebhookDeliveryDetail.allOf[1].properties.payload.anyOf).toEqual([{ $ref: '#/components/schemas/WebhookPayload' }, { type: 'null' }]);
    expect(components.schemas.CreateWebhookEndpoint.properties.url.description).toMatch(/Cloudflare refuses them/);
  });
});
