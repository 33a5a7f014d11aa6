export { type FieldTree, fieldTreeFromSchema, parseFields, project, selects } from './fields';
export { booleanFilter, createdAfterFilter, createdBeforeFilter, enumFilter, exactFilter, idOrSlugFilter, integerFilter, instantBeforeFilter, moneyBoundFilter, searchFilter } from './filters';
export {
  DEFAULT_LIMIT,
  defineListQuery,
  FIELDS_SELECTION_EXTENSION,
  FIELDS_SELECTION_NOTE,
  fieldSelection,
  type FilterSpec,
  listPlan,
  listQuerySchema,
  type ListQueryConfig,
  MAX_LIMIT,
  type ParsedListQuery,
  readQuerySchema,
} from './list-query';
export { orderByFor, type SortKey, parseSort } from './sort';
export { getByIdOrSlug, listTable } from './list-table';
export { booleanQuery, numberQuery } from './typed';
