// The bench's own door into the D1 database (never measured): the runner posts JSON here to apply
// migrations, seed the catalogue and read counts, one D1 call per request.
//   POST /batch  [[sql, params], ...]  -> one db.batch(), answers [{ rows_read, rows_written, changes }]
//   POST /query  [sql, params]         -> { results, meta }
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    try {
      if (url.pathname === '/batch') {
        const statements = await request.json();
        const results = await env.DB.batch(statements.map(([sql, params = []]) => env.DB.prepare(sql).bind(...params)));
        return Response.json(results.map((r) => ({ rows_read: r.meta?.rows_read, rows_written: r.meta?.rows_written, changes: r.meta?.changes })));
      }
      if (url.pathname === '/query') {
        const [sql, params = []] = await request.json();
        const result = await env.DB.prepare(sql)
          .bind(...params)
          .all();
        return Response.json({ results: result.results, meta: result.meta });
      }
      return new Response('not found', { status: 404 });
    } catch (error) {
      return Response.json({ error: String(error?.message ?? error) }, { status: 500 });
    }
  },
};
