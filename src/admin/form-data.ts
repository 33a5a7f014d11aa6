import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { ApiError, problemOf } from '../lib/errors';
import { fieldProblems } from '../lib/validation';
import type { Flash } from './components/layout';
import type { FormState } from './components/form';
import { CSRF_FIELD } from './csrf';
import { cookieOptions } from './session';

/** A posted form: each name's values (checkbox groups have several), without the CSRF field. */
export type Posted = Record<string, string[]>;

export async function readForm(c: Context<AppEnv>): Promise<Posted> {
  const body = await c.req.parseBody({ all: true });
  const out: Posted = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === CSRF_FIELD) continue;
    out[name] = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
  }
  return out;
}

/** The first value of a field, trimmed; undefined when absent or blank. */
export const str = (form: Posted, name: string): string | undefined => {
  const value = form[name]?.[0]?.trim();
  return value ? value : undefined;
};
/** Blank means "clear it": null. */
export const orNull = (form: Posted, name: string): string | null => str(form, name) ?? null;
/** A number field; a value that is not a number is passed on as text, so the schema names the field. */
export const num = (form: Posted, name: string): number | string | undefined => {
  const value = str(form, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
};
export const numOrNull = (form: Posted, name: string) => num(form, name) ?? null;
/** A number the API requires: blank goes on as '' for the schema to refuse next to the field, instead of leaving it unchanged. */
export const required = (form: Posted, name: string) => num(form, name) ?? form[name]?.[0] ?? '';
export const checked = (form: Posted, name: string) => form[name]?.includes('on') ?? false;
export const all = (form: Posted, name: string) => (form[name] ?? []).map((v) => v.trim()).filter(Boolean);
/** Values to refill a form with after a failure: single fields as text, groups as lists. */
export function refill(form: Posted, groups: string[] = []): Record<string, unknown> {
  return Object.fromEntries(Object.entries(form).map(([name, values]) => [name, groups.includes(name) ? values : (values[0] ?? '')]));
}
/** `YYYY-MM-DD` from a date input as the end of that day in UTC, ISO. */
export const endOfDay = (form: Posted, name: string) => {
  const day = str(form, name);
  return day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T23:59:59.999Z` : day;
};

/** The API's body schema decides, with the API's messages: 422 VALIDATION_ERROR naming each field. */
export function validate<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw ApiError.validation(fieldProblems(parsed.error));
  return parsed.data;
}

/**
 * What an ApiError from the schema or a service means for a form: field messages next to their
 * fields (the `details` of a validation error or a conflict, worded without the field's name, which the
 * form's label gives), else one message.
 * Anything that is not an ApiError is a bug and goes on to the error page.
 */
export function failure(error: unknown, values: Record<string, unknown>, fieldNames: Record<string, string> = {}): FormState {
  if (!(error instanceof ApiError)) throw error;
  const errors: Record<string, string> = {};
  if (error.code !== 'INVALID_REQUEST') {
    for (const detail of error.details) {
      const about = problemOf(detail);
      if (about) errors[fieldNames[about.field] ?? about.field] = about.problem;
    }
  }
  const message = error.code === 'VALIDATION_ERROR' ? undefined : error.message;
  return { values, errors, message };
}

/** The status a failed form is answered with: the API's for the same error. */
export const failureStatus = (error: unknown) => (error instanceof ApiError ? error.status : 500);

const FLASH_COOKIE = 'admin_flash';

/** Post/redirect/get: the message travels to the next page in a short-lived cookie. */
export function redirectWith(c: Context<AppEnv>, to: string, text: string, kind: Flash['kind'] = 'ok') {
  setCookie(c, FLASH_COOKIE, encodeURIComponent(JSON.stringify({ kind, text: text.slice(0, 500) })), cookieOptions(c, 60));
  return c.redirect(to, 303);
}

export function takeFlash(c: Context<AppEnv>): Flash | null {
  const raw = getCookie(c, FLASH_COOKIE);
  if (!raw) return null;
  deleteCookie(c, FLASH_COOKIE, cookieOptions(c));
  try {
    const flash = JSON.parse(decodeURIComponent(raw)) as Flash;
    return (flash.kind === 'ok' || flash.kind === 'error') && typeof flash.text === 'string' ? flash : null;
  } catch {
    return null;
  }
}
