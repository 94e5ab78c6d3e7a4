import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GATEWAY_ENV, GATEWAY_NODE_FLAGS } from './process-tuning';

const ROOT = path.join(__dirname, '..', '..');

/** The node command line of a start script or CMD, as words. */
function nodeArguments(command: string): string[] {
  return command.split(/\s+/).filter((word) => word !== 'node');
}

describe('the gateway starts as process-tuning.ts says, wherever it is started', () => {
  it('in package.json start scripts', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['start', 'start:prod']) expect(nodeArguments(scripts[name])).toEqual([...GATEWAY_NODE_FLAGS, 'dist/src/main.js']);
  });

  it('in the Dockerfile', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]';
    expect(JSON.parse(cmd)).toEqual(['node', ...GATEWAY_NODE_FLAGS, 'dist/src/main.js']);
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    for (const [name, value] of Object.entries(GATEWAY_ENV)) expect(runtimeStage).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, 'm'));
  });
});
