/**
 * A phone number in the one form the store keeps and sends SMS to: what was typed without spaces,
 * brackets, dots or dashes (`+49 30 1234567` -> `+49301234567`). Applied on write (the Phone schema)
 * and again when sending, for rows written before writes were normalised.
 */
export const normalisePhone = (phone: string | null | undefined): string | null => (phone ? phone.replace(/[\s().-]/g, '') || null : null);
