import { z } from '@hono/zod-openapi';
import { PING_EVENT } from '../../lib/events';
import { EVENT_TYPES } from '../registry';

/** Subscribes to every event kind, present and future. */
export const ALL_EVENTS = '*';

const KNOWN = new Set<string>(EVENT_TYPES);

/** Why a list of event kinds cannot be subscribed to, or null. */
export function eventKindsProblem(kinds: string[]): string | null {
  if (kinds.includes(ALL_EVENTS) && kinds.some((k) => k !== ALL_EVENTS)) return `'${ALL_EVENTS}' (every event) must be given alone`;
  if (kinds.includes(PING_EVENT)) return `'${PING_EVENT}' cannot be subscribed to: POST /api/webhooks/{id}/test sends it to one endpoint`;
  const unknown = [...new Set(kinds.filter((k) => k !== ALL_EVENTS && !KNOWN.has(k)))];
  if (unknown.length) return `unknown event kinds: ${unknown.join(', ')}; known: ${EVENT_TYPES.join(', ')}`;
  return null;
}

/** `["order.placed", ...]` or `["*"]`; duplicates are dropped. */
export const EventKinds = z
  .array(z.string().trim().min(1).max(100))
  .min(1)
  .max(50)
  .superRefine((kinds, ctx) => {
    const problem = eventKindsProblem(kinds);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((kinds) => [...new Set(kinds)])
  .openapi({
    description: `Event kinds to deliver: any of ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}; or \`["*"]\` alone for every kind, including kinds added later. Duplicates are dropped. \`${PING_EVENT}\` is not subscribable: \`POST /api/webhooks/{id}/test\` sends it.`,
    example: ['order.placed', 'order.cancelled'],
  });

/** `order.*`: every kind that starts with `order.`. */
const PREFIX_PATTERN = /^([a-z_]+)\.\*$/;

/** The known kinds a kind or a `prefix.*` pattern names (none for an unknown one). */
export function kindsOf(pattern: string): string[] {
  const prefix = PREFIX_PATTERN.exec(pattern)?.[1];
  return prefix ? EVENT_TYPES.filter((kind) => kind.startsWith(`${prefix}.`)) : KNOWN.has(pattern) ? [pattern] : [];
}

/** The kinds an endpoint subscribed to `subscribed` receives. */
export const subscribedKinds = (subscribed: readonly string[]): string[] =>
  subscribed.includes(ALL_EVENTS) ? [...EVENT_TYPES] : EVENT_TYPES.filter((k) => subscribed.includes(k));

/** Kinds or `prefix.*` patterns to narrow a replay by; each must name at least one known kind. */
export const EventKindPatterns = z
  .array(z.string().trim().min(1).max(100))
  .min(1)
  .max(50)
  .superRefine((patterns, ctx) => {
    const unknown = [...new Set(patterns.filter((p) => kindsOf(p).length === 0))];
    if (unknown.length) ctx.addIssue({ code: 'custom', message: `unknown event kinds: ${unknown.join(', ')}; known: ${EVENT_TYPES.join(', ')}, or a prefix such as order.*` });
  })
  .transform((patterns) => [...new Set(patterns)])
  .openapi({
    description: 'Event kinds (any of those an endpoint subscribes to), or every kind of a prefix with `.*` (`order.*`). Duplicates are dropped.',
    example: ['order.*', 'payment.completed'],
  });
