import { createRouter } from '../../lib/router';
import * as handlers from './products.handlers';
import * as routes from './products.routes';

export const productsRouter = createRouter()
  .openapi(routes.listProducts, handlers.listProducts)
  .openapi(routes.createProduct, handlers.createProduct)
  // Before /products/{id}, which would take `suggest` for an id.
  .openapi(routes.suggestProducts, handlers.suggestProducts)
  .openapi(routes.getProduct, handlers.getProduct)
  .openapi(routes.updateProduct, handlers.updateProduct)
  .openapi(routes.deleteProduct, handlers.deleteProduct)
  .openapi(routes.listVariants, handlers.listVariants)
  .openapi(routes.createVariant, handlers.createVariant)
  .openapi(routes.getVariant, handlers.getVariant)
  .openapi(routes.updateVariant, handlers.updateVariant)
  .openapi(routes.deleteVariant, handlers.deleteVariant);
