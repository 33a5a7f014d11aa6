import { z } from '@hono/zod-openapi';
import { addresses } from '../../db/schema';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';
import { Phone } from '../users/schemas';
import { ISO_COUNTRY_CODES } from '../../lib/country-codes';

/** Shapes of a customer's addresses on the wire, derived from the addresses table. */

export const AddressSchema = createSelectSchema(addresses, { createdAt: Timestamp, updatedAt: Timestamp }).omit({ userId: true }).openapi('Address');
export type Address = z.infer<typeof AddressSchema>;

export const CountryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code in capitals, like US')
  .refine((code) => ISO_COUNTRY_CODES.has(code), 'is not an assigned ISO 3166-1 country code')
  .openapi({ example: 'US', description: 'ISO 3166-1 alpha-2, in capitals.' });

const line = (max: number) => z.string().trim().min(1).max(max);

const addressFields = {
  firstName: line(100).nullable(),
  lastName: line(100).nullable(),
  company: line(200).nullable(),
  line1: line(200),
  line2: line(200).nullable(),
  city: line(100),
  region: line(100).nullable(),
  postalCode: line(20).nullable(),
  country: CountryCode,
  phone: Phone.nullable(),
  isDefaultShipping: z.boolean().openapi({ description: 'Setting it clears it on the other addresses of the customer.' }),
  isDefaultBilling: z.boolean().openapi({ description: 'Setting it clears it on the other addresses of the customer.' }),
};
const serverColumns = { id: true, userId: true, createdAt: true, updatedAt: true } as const;

export const CreateAddressBody = createInsertSchema(addresses, addressFields)
  .omit(serverColumns)
  .partial()
  .required({ line1: true, city: true, country: true })
  .strict()
  .openapi('CreateAddress');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateAddressBody = createUpdateSchema(addresses, addressFields).omit(serverColumns).partial().strict().openapi('UpdateAddress');

export type CreateAddressInput = z.infer<typeof CreateAddressBody>;
export type UpdateAddressInput = z.infer<typeof UpdateAddressBody>;
