import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi-dump';

// Runs in Node, like test/openapi.node.test.ts: the document the Worker serves, for the content and audit routes.
async function paths() {
  return (await openApiDocument()).paths as Record<string, Record<string, any>>;
}

describe('OpenAPI: content and audit log', () => {
  it('documents the five routes of pages, menus and banners: public reads, content:write for writes', async () => {
    const doc = await paths();
    for (const base of ['/api/pages', '/api/menus', '/api/banners']) {
      expect(Object.keys(doc[base]!).sort()).toEqual(['get', 'post']);
      expect(Object.keys(doc[`${base}/{id}`]!).sort()).toEqual(['delete', 'get', 'patch']);
      expect(doc[base]!.get.security).toEqual([{}, { publishableKey: [] }, { bearerAuth: [] }]);
      expect(doc[base]!.post.description).toContain('content:write');
      expect(doc[base]!.post.responses['422']).toBeDefined();
    }
    expect(doc['/api/pages']!.post.responses['409']).toBeDefined();
    expect(doc['/api/pages']!.get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['status', 'q', 'published_after', 'published_before', 'sort', 'fields']),
    );
  });

  it('documents the audit log as read-only, for audit-log:read, with its filters', async () => {
    const doc = await paths();
    expect(Object.keys(doc['/api/audit-log']!)).toEqual(['get']);
    expect(Object.keys(doc['/api/audit-log/{id}']!)).toEqual(['get']);
    const list = doc['/api/audit-log']!.get;
    expect(list.security).toEqual([{ bearerAuth: [] }]);
    expect(list.description).toContain('audit-log:read');
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['actor', 'actor_kind', 'resource', 'resource_id', 'action', 'request_id', 'created_after', 'created_before']),
    );
  });
});
