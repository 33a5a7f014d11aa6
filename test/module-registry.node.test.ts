import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ModuleDeclaration } from '../src/lib/define-module';
import { AUDITED_TABLES, EVENT_TYPES, eventKinds, MODULES, NOT_AUDITED, PERMISSION_RESOURCES } from '../src/modules/registry';

// A module is declared once, in its module.ts, and registered by one line in src/modules/registry.ts:
// the mounts, permissions, audit lists and event kinds are derived from the declarations, so a
// declaration that is missing or says something twice is caught here.

const MODULES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/modules');
const folders = readdirSync(MODULES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('the module registry', () => {
  it('has every module folder, each declared in its module.ts under its own name, once', () => {
    expect(folders.filter((name) => !existsSync(path.join(MODULES_DIR, name, 'module.ts')))).toEqual([]);
    expect(MODULES.map((module) => module.name).sort()).toEqual(folders);
  });

  it('gives every table, permission resource and event kind one owner', () => {
    const declared: readonly ModuleDeclaration[] = MODULES;
    const owners = (pick: (module: ModuleDeclaration) => readonly string[]) => {
      const seen = declared.flatMap(pick);
      return seen.filter((item, index) => seen.indexOf(item) !== index);
    };
    expect(owners((m) => m.permissions ?? [])).toEqual([]);
    expect(owners((m) => m.events ?? [])).toEqual([]);
    expect(owners((m) => [...Object.keys(m.tables?.audited ?? {}), ...Object.keys(m.tables?.notAudited ?? {})])).toEqual([]);
    expect(Object.keys(AUDITED_TABLES).filter((table) => table in NOT_AUDITED)).toEqual([]);
    expect(PERMISSION_RESOURCES).toContain('gift-cards');
  });

  it("loads, for each module's event kinds, exactly their payload schemas", async () => {
    const kinds = await eventKinds();
    expect(Object.keys(kinds).sort()).toEqual([...EVENT_TYPES].sort());
    for (const module of MODULES) {
      if (!('events' in module)) continue;
      expect(Object.keys(await module.eventKinds()).sort(), module.name).toEqual([...module.events].sort());
    }
  });

  it('loads every router a module declares', async () => {
    for (const module of MODULES) {
      for (const router of module.routers) expect(typeof ((await router.load()) as { fetch?: unknown }).fetch, module.name).toBe('function');
    }
  });
});
