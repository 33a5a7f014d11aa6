// The client libraries' view of the OpenAPI document (clients/openapi.json): every operation with
// the resource group and method name it has in the clients, its parameters with their real types,
// and what it answers. The three generators (TypeScript, Python, PHP) read this and nothing else,
// so they cannot disagree about names or shapes.

const VERB = { get: 'get', post: 'create', patch: 'update', put: 'replace', delete: 'delete' };

/** `rotate-secret` -> `rotateSecret`; `api-keys` -> `apiKeys`. */
export const camel = (s) => s.replace(/[-_ ]+([a-zA-Z0-9])/g, (_, c) => c.toUpperCase());

/**
 * The group and method of an operation: the document's `x-sdk-group` / `x-sdk-method` when present,
 * else made from the path (`/api/orders/{id}/cancel` -> orders.cancel, `/api/products/{id}/variants`
 * -> products.variants.list).
 */
function names(httpMethod, path, op) {
  if (op['x-sdk-group'] && op['x-sdk-method']) return { group: op['x-sdk-group'], method: op['x-sdk-method'] };
  const segments = path
    .replace(/^\/api\/?/, '')
    .split('/')
    .filter(Boolean);
  const statics = segments.filter((s) => !s.startsWith('{'));
  const endsWithParam = segments.at(-1)?.startsWith('{');
  let method;
  if (httpMethod === 'post' && !endsWithParam && segments.length > 1 && segments.at(-2)?.startsWith('{')) {
    // A verb under an item: POST /orders/{id}/cancel — unless the last segment is a collection.
    const last = statics.at(-1);
    if (/s$/.test(last) && !['access'].includes(last)) method = 'create';
    else {
      statics.pop();
      method = camel(last);
    }
  } else if (httpMethod === 'get') method = endsWithParam ? 'get' : 'list';
  else method = VERB[httpMethod];
  return { group: statics.map(camel).join('.'), method };
}

function schemaOf(param) {
  const s = param.schema ?? {};
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  return { type: ['integer', 'number', 'boolean'].includes(type) ? type : 'string', enum: s.enum ?? null };
}

/** `#/components/schemas/Product` -> `Product`. */
export const refName = (ref) => ref?.split('/').pop() ?? null;

function answer(op) {
  const status = Object.keys(op.responses ?? {}).find((s) => /^2/.test(s));
  if (!status || status === '204') return { status: Number(status ?? 204), kind: 'none', schema: null };
  const schema = op.responses[status].content?.['application/json']?.schema;
  const data = schema?.properties?.data;
  if (!data) return { status: Number(status), kind: 'raw', schema: schema ?? null };
  const kind = schema.properties.pagination ? 'list' : 'item';
  const item = kind === 'list' ? data.items : data;
  return { status: Number(status), kind, schema: item?.$ref ? refName(item.$ref) : null, inline: item?.$ref ? null : item };
}

/** The operations of the document, in document order, each as the clients see it. */
export function operations(doc) {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [httpMethod, op] of Object.entries(item)) {
      if (!VERB[httpMethod] || op['x-sdk-exclude']) continue;
      const params = op.parameters ?? [];
      const body = op.requestBody?.content?.['application/json'];
      // A file upload (an image): the raw bytes, sent as application/octet-stream for the server to identify.
      const binary = !body && op.requestBody?.content?.['application/octet-stream'];
      const security = op.security ?? doc.security ?? [];
      out.push({
        operationId: op.operationId ?? null,
        ...names(httpMethod, path, op),
        httpMethod: httpMethod.toUpperCase(),
        path,
        summary: op.summary ?? '',
        tag: op.tags?.[0] ?? null,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        // `format=csv` answers CSV, which the clients (JSON in, typed objects out) do not read: left out of them.
        queryParams: params
          .filter((p) => p.in === 'query' && p.name !== 'format')
          .map((p) => ({ name: p.name, required: !!p.required, description: p.description ?? p.schema?.description ?? '', ...schemaOf(p) })),
        headerParams: params.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()),
        body: body ? { required: !!op.requestBody.required, schema: body.schema?.$ref ? refName(body.schema.$ref) : null, inline: body.schema?.$ref ? null : body.schema } : null,
        file: Boolean(binary),
        // Money moves and other POSTs that take `Idempotency-Key`: the clients send one automatically.
        idempotent: params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
        // 'none': no credential; 'optional': works with or without; 'required'.
        auth: security.length === 0 ? 'none' : security.some((s) => Object.keys(s).length === 0) ? 'optional' : 'required',
        // Whether `?fields=` may trim the answer to the selected properties.
        selectable: params.some((p) => p.in === 'query' && p.name === 'fields'),
        response: answer(op),
      });
    }
  }
  return out;
}

/** The groups as a tree: { products: { methods: [...ops], children: { variants: {...} } } }. */
export function groupTree(ops) {
  const root = { methods: [], children: {} };
  for (const op of ops) {
    let node = root;
    for (const part of op.group.split('.').filter(Boolean)) node = node.children[part] ??= { methods: [], children: {} };
    node.methods.push(op);
  }
  return root;
}

/** The schemas every generator emits types for. */
export const schemas = (doc) => doc.components?.schemas ?? {};

/**
 * The events the store POSTs to webhook endpoints (the document's `webhooks`), in document order:
 * [{ type: 'order.placed', schema: 'OrderPlacedEvent', data: 'OrderPlacedEventData', summary, description }].
 */
export function webhookEvents(doc) {
  return Object.entries(doc.webhooks ?? {}).map(([type, item]) => {
    const schema = refName(item.post?.requestBody?.content?.['application/json']?.schema?.$ref);
    const data = refName(doc.components?.schemas?.[schema]?.properties?.data?.$ref);
    if (!schema || !data) throw new Error(`webhooks.${type}: its body must be a $ref to a component whose data is a $ref`);
    return { type, schema, data, summary: item.post.summary ?? '', description: item.post.description ?? '' };
  });
}

/**
 * The dated API version the document describes (`info.version`, docs/versioning.md): the clients
 * send it as `Store-Version` on every request, so a client answers in the shapes it was generated
 * for whatever its key is pinned to or the store defaults to. Regenerating against a newer document
 * moves them to that version.
 */
export function storeVersion(doc) {
  const version = doc.info?.version;
  if (typeof version !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
    throw new Error(`clients/openapi.json: info.version must be the API version's date (YYYY-MM-DD), not ${JSON.stringify(version)}`);
  }
  return version;
}
