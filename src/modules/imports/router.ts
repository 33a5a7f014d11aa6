import { createRouter } from '../../lib/router';
import * as handlers from './imports.handlers';
import * as routes from './imports.routes';

export const importsRouter = createRouter()
  .openapi(routes.importProducts, handlers.importProducts)
  .openapi(routes.listImports, handlers.listImports)
  .openapi(routes.getImport, handlers.getImport);
