/**
 * Everything a module keeps in the isolate between requests (caches, leases, kept inputs) registers
 * here how to drop it. Production never calls `forgetIsolateState`: an isolate's state ends with the
 * isolate. The tests do, between test files that share one runtime (vitest.config.ts), so a file
 * never sees what an earlier file left kept against a database that has since been wiped.
 */
const forgetters: (() => void)[] = [];

export function keptPerIsolate(forget: () => void): void {
  forgetters.push(forget);
}

export function forgetIsolateState(): void {
  for (const forget of forgetters) forget();
}
