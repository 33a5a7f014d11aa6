import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi-dump';
import { type EventType, PING_EVENT } from '../../src/lib/events';
import { EVENT_TYPES, eventKinds } from '../../src/modules/registry';
import { PING_KIND } from '../../src/webhooks/ping';

describe("the OpenAPI document's webhooks", () => {
  it('lists every event kind and ping, each POSTing its own named envelope with the signature headers and a 2XX answer', async () => {
    const doc = await openApiDocument();
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES, PING_EVENT].sort());
    const operationIds = new Set<string>();
    for (const [type, item] of Object.entries<any>(doc.webhooks)) {
      const op = item.post;
      const stem = type
        .split(/[._]/)
        .map((w) => w[0]!.toUpperCase() + w.slice(1))
        .join('');
      expect(op.operationId, type).toMatch(/^[a-z][A-Za-z]*Event$/);
      operationIds.add(op.operationId);
      expect(op.summary && op.description, type).toBeTruthy();
      expect(op.tags).toEqual(['Events']);
      expect(op.responses).toHaveProperty('2XX');
      expect(
        op.parameters
          .filter((p: any) => p.required)
          .map((p: any) => p.name)
          .sort(),
      ).toEqual(['X-Store-Delivery', 'X-Store-Event', 'X-Store-Signature', 'webhook-id', 'webhook-signature', 'webhook-timestamp'].sort());
      expect(op.requestBody.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${stem}Event` });
      const envelope = doc.components.schemas[`${stem}Event`];
      expect(envelope.required).toEqual(['id', 'event', 'data', 'timestamp', 'position', 'resourceId', 'sequence']);
      expect(envelope.properties.event).toEqual({ type: 'string', enum: [type] });
      expect(envelope.properties.data).toEqual({ $ref: `#/components/schemas/${stem}EventData` });
      expect(doc.components.schemas[`${stem}EventData`].type).toBe('object');
    }
    expect(operationIds.size).toBe(EVENT_TYPES.length + 1);
    // The product events carry the product as the product routes answer it: the one Product schema.
    expect(doc.components.schemas.ProductCreatedEventData.properties.product).toEqual({ $ref: '#/components/schemas/Product' });
  });
});

it('docs/webhooks.md lists every event kind, each with exactly the fields of its data', async () => {
  const text = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  for (const [, kind, cell] of text.matchAll(/^\| `([a-z._]+)` \| [^|]+ \| (.+) \|$/gm)) rows.set(kind!, cell!);
  expect([...rows.keys()].sort()).toEqual([...EVENT_TYPES, PING_EVENT].sort());
  const fields = (kind: string): string[] => {
    const cell = rows.get(kind)!;
    const same = /^as `([a-z._]+)`$/.exec(cell);
    if (same) return fields(same[1]!);
    return [...cell.matchAll(/`([a-z][A-Za-z0-9]*)`/g)].map((m) => m[1]!).sort();
  };
  const kinds = await eventKinds();
  for (const kind of rows.keys()) {
    const schema = kind === PING_EVENT ? PING_KIND.data : kinds[kind as EventType].data;
    expect(fields(kind), kind).toEqual(Object.keys(schema.shape).sort());
  }
});
