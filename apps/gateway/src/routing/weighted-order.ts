/**
 * Orders items by ascending priority tier, and inside a tier by a weighted random draw without
 * replacement (Efraimidis–Spirakis: sort by u^(1/w) descending), so the first pick is
 * proportional to weight and the rest of the tier follows as fallbacks.
 */
export function weightedOrder<T extends { priority: number; weight: number }>(
  items: readonly T[],
  random: () => number = Math.random,
): T[] {
  const keyed = items.map((item) => ({ item, key: random() ** (1 / item.weight) }));
  keyed.sort((a, b) => a.item.priority - b.item.priority || b.key - a.key);
  return keyed.map((k) => k.item);
}
