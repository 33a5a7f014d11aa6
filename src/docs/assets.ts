import { Hono } from 'hono';

/** The Swagger UI files /docs loads; wrangler.toml `[assets]` serves node_modules/swagger-ui-dist (pinned in package.json). */
const DOCS_ASSET_FILES = new Set(['swagger-ui-bundle.js', 'swagger-ui.css']);

/** The assets binding of wrangler.toml (`[assets] binding = "ASSETS"`). */
type AssetsEnv = { Bindings: { ASSETS: Fetcher } };

/**
 * `/docs/assets/swagger-ui-dist/:file`: the two Swagger UI files from the Worker's static assets, so the
 * docs page loads nothing from a CDN. Only these two are reachable: the assets directory holds the
 * whole npm package (README, source maps), and `run_worker_first` keeps every other path in the Worker.
 */
export const docsAssetsRouter = new Hono<AssetsEnv>().get('/swagger-ui-dist/:file', async (c) => {
  const file = c.req.param('file');
  if (!DOCS_ASSET_FILES.has(file)) return c.notFound();
  const asset = await c.env.ASSETS.fetch(new URL(`/${file}`, c.req.url));
  const response = new Response(asset.body, asset);
  // The file names carry no version, so browsers revalidate (the assets answer 304 on a matching ETag).
  response.headers.set('Cache-Control', 'public, max-age=0, must-revalidate');
  return response;
});
