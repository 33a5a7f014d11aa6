import { createRouter } from '../../lib/router';
import * as handlers from './carts.handlers';
import * as routes from './carts.routes';

export const cartsRouter = createRouter()
  .openapi(routes.listCarts, handlers.listCarts)
  .openapi(routes.createCart, handlers.createCart)
  .openapi(routes.getCart, handlers.getCart)
  .openapi(routes.getShippingOptions, handlers.getShippingOptions)
  .openapi(routes.updateCart, handlers.updateCart)
  .openapi(routes.addLine, handlers.addLine)
  .openapi(routes.updateLine, handlers.updateLine)
  .openapi(routes.removeLine, handlers.removeLine)
  .openapi(routes.applyCoupon, handlers.applyCoupon)
  .openapi(routes.removeCoupon, handlers.removeCoupon)
  .openapi(routes.applyGiftCard, handlers.applyGiftCard)
  .openapi(routes.removeGiftCard, handlers.removeGiftCard)
  .openapi(routes.adoptCart, handlers.adoptCart)
  .openapi(routes.recoverCart, handlers.recoverCart)
  .openapi(routes.checkoutCart, handlers.checkoutCart);
