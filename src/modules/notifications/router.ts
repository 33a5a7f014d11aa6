import { createRouter } from '../../lib/router';
import * as handlers from './notifications.handlers';
import * as routes from './notifications.routes';

// Templates first: /notifications/{id} would otherwise take /notifications/templates.
export const notificationsRouter = createRouter()
  .openapi(routes.listTemplates, handlers.listTemplates)
  .openapi(routes.getTemplate, handlers.getTemplate)
  .openapi(routes.updateTemplate, handlers.updateTemplate)
  .openapi(routes.previewTemplate, handlers.previewTemplate)
  .openapi(routes.resetTemplate, handlers.resetTemplate)
  .openapi(routes.listNotifications, handlers.listNotifications)
  .openapi(routes.getNotification, handlers.getNotification);
