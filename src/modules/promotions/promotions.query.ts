import { promotions, PROMOTION_TYPES } from '../../db/schema';
import { booleanFilter, defineListQuery, enumFilter, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { PromotionSchema } from './promotions.schemas';

export const promotionListQuery = defineListQuery({
  resource: 'promotion',
  id: promotions.id,
  sortable: { createdAt: promotions.createdAt, name: promotions.name, priority: promotions.priority, endsAt: promotions.endsAt, id: promotions.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(PromotionSchema),
  filters: {
    q: searchFilter([promotions.name, promotions.code, promotions.description], 'Search in name, code and description, case-insensitive.'),
    active: booleanFilter(promotions.active, 'Switched on or off.'),
    type: enumFilter(promotions.type, PROMOTION_TYPES, 'Promotion type.'),
  },
});
