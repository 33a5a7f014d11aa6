import { z } from '@hono/zod-openapi';
import { taxClasses } from '../../db/schema';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';
import { TaxClassCode } from './taxes.schemas';

/** The classes every store has: `standard` is what a product or rate without a class is, `zero` is never taxed. */
export const BUILT_IN_TAX_CLASSES = ['standard', 'zero'] as const;

export const TaxClassSchema = createSelectSchema(taxClasses, {
  code: TaxClassCode,
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi('TaxClass', {
  description:
    "A kind of goods taxed at its own rates (`taxClass` of a product and of a tax rate): `standard`, `reduced`, `zero` and the store's own. " +
    "A class with no rate for a place pays the standard class's rate there; `zero` is never taxed (no rate can be made for it). " +
    '`standard` and `zero` always exist.',
});
export type TaxClass = z.infer<typeof TaxClassSchema>;

const fields = {
  code: TaxClassCode.openapi({ description: 'Lower-case letters, digits and dashes; unique, and it cannot change.', example: 'books' }),
  name: z.string().trim().min(1).max(100).openapi({ example: 'Books' }),
};
const serverColumns = { createdAt: true, updatedAt: true } as const;

export const CreateTaxClassBody = createInsertSchema(taxClasses, fields).omit(serverColumns).strict().openapi('CreateTaxClass');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateTaxClassBody = createUpdateSchema(taxClasses, fields)
  .omit({ ...serverColumns, code: true })
  .partial()
  .strict()
  .openapi('UpdateTaxClass', { description: 'The code cannot change: products and rates name the class by it.' });

export type CreateTaxClassInput = z.infer<typeof CreateTaxClassBody>;
export type UpdateTaxClassInput = z.infer<typeof UpdateTaxClassBody>;

/** `{code}` in a tax class path, in any case. */
export const TaxClassParams = z.object({
  code: z
    .string()
    .min(1)
    .max(40)
    .transform((code) => code.toLowerCase())
    .openapi({ param: { name: 'code', in: 'path' }, example: 'reduced' }),
});
