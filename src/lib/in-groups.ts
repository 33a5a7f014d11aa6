/** `items` in consecutive groups of at most `size` (the last may be shorter): for limits counted in items, not bound values. */
export function inGroupsOf<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a group holds at least one item, not ${size}`);
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  return groups;
}
