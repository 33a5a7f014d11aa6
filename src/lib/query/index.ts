export { type FieldTree, fieldTreeFromSchema, parseFields, project, selects } from './fields';
export {
  booleanFilter,
  createdAfterFilter,
  createdBeforeFilter,
  enumFilter,
  exactFilter,
  idOrSlugFilter,
  integerFilter,
  instantAfterFilter,
  instantBeforeFilter,
  moneyBoundFilter,
  searchFilter,
} from './filters';
export {
  DEFAULT_CSV_EXPORT_MAX_ROWS,
  DEFAULT_LIMIT,
  defineListQuery,
  FIELDS_SELECTION_EXTENSION,
  FIELDS_SELECTION_NOTE,
  fieldSelection,
  type AnyFilters,
  type FilterSpec,
  continueParsedList,
  listConfigOf,
  listPlan,
  listQuerySchema,
  type ListQueryConfig,
  MAX_LIMIT,
  type ParsedListQuery,
  readQuerySchema,
  readQuerySchemaWith,
} from './list-query';
export { continueAfter, continuationKey, type Cursor, keysetFields } from './keyset';
export { orderByFor, type SortKey, parseSort } from './sort';
export { getByIdOrSlug, listTable } from './list-table';
export { booleanQuery, numberQuery } from './typed';
