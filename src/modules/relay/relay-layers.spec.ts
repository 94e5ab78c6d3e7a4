import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The relay's folders import downwards only: `wire/` (the shared OpenAI-shaped vocabulary)
 * imports nothing of the relay; `formats/` (the client's side) and `providers/` (the upstream's)
 * stand beside each other on it; `stages/` use all three. An import against these arrows is how
 * a cycle starts.
 */
const FORBIDDEN: Record<string, readonly string[]> = {
  wire: ['*'],
  formats: ['providers', 'stages'],
  providers: ['formats', 'stages'],
};

const RELAY = __dirname;
const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gm;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The relay folder a path lies in (`(root)` for the relay's own files), or undefined outside the relay. */
function relayFolder(path: string): string | undefined {
  const inside = relative(RELAY, path);
  if (inside.startsWith('..')) return undefined;
  const parts = inside.split('/');
  return parts.length > 1 ? parts[0] : '(root)';
}

describe('relay folder layers', () => {
  it.each(Object.keys(FORBIDDEN))('%s/ imports only downwards', (folder) => {
    const wrong: string[] = [];
    for (const file of sourceFiles(join(RELAY, folder))) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = relayFolder(resolve(dirname(file), specifier));
        if (target === undefined || target === folder) continue;
        if (FORBIDDEN[folder].includes('*') || FORBIDDEN[folder].includes(target)) wrong.push(`${relative(RELAY, file)} → ${specifier}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
