import { sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { customerGroupMembers } from '../../db/schema';

/** SQL for the ids of the groups a customer (`customerId`, a column of the outer query) is in, sorted, as a JSON array read back as a list. */
export const groupIdsOf = (customerId: SQLiteColumn) =>
  sql<string>`(SELECT coalesce(json_group_array(g), '[]') FROM (SELECT ${customerGroupMembers.groupId} AS g FROM ${customerGroupMembers} WHERE ${customerGroupMembers.customerId} = ${customerId} ORDER BY g))`.mapWith(
    (text: string) => JSON.parse(text) as string[],
  );

/** SQL: the customer (`customerId`, a column of the outer query) is in the group `groupId`. */
export const inGroup = (customerId: SQLiteColumn, groupId: string) =>
  sql`EXISTS (SELECT 1 FROM ${customerGroupMembers} WHERE ${customerGroupMembers.groupId} = ${groupId} AND ${customerGroupMembers.customerId} = ${customerId})`;
